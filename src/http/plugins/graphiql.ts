// GraphiQL at /graphiql, with every asset served by Herald itself. Mercurius's
// own page loads React and GraphiQL from a CDN (its static/main.js hard-codes
// those URLs), so a server without internet showed a blank page; this page
// takes the same UMD builds from the installed npm packages (graphiql, react,
// react-dom) and the browser asks nothing of any other host.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../../paths.ts';

const require = createRequire(import.meta.url);

/** A file inside an installed package (its exports map need not list it). */
function packageFile(pkg: string, file: string): string {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
}

interface Asset {
  file: string;
  type: string;
}

export const GRAPHIQL_ASSETS: Record<string, Asset> = {
  'react.production.min.js': { file: packageFile('react', 'umd/react.production.min.js'), type: 'application/javascript' },
  'react-dom.production.min.js': { file: packageFile('react-dom', 'umd/react-dom.production.min.js'), type: 'application/javascript' },
  'graphiql.min.js': { file: packageFile('graphiql', 'graphiql.min.js'), type: 'application/javascript' },
  'graphiql.min.css': { file: packageFile('graphiql', 'graphiql.min.css'), type: 'text/css' },
  'start.js': { file: path.join(projectRoot, 'src/http/static/graphiql-start.js'), type: 'application/javascript' },
};

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Herald · GraphiQL</title>
  <meta name="robots" content="noindex">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/graphiql/assets/graphiql.min.css">
  <style>body { margin: 0; overflow: hidden; } #graphiql { height: 100vh; }</style>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="/graphiql/assets/react.production.min.js"></script>
  <script src="/graphiql/assets/react-dom.production.min.js"></script>
  <script src="/graphiql/assets/graphiql.min.js"></script>
  <script src="/graphiql/assets/start.js"></script>
</body>
</html>
`;

export default async function graphiql(app: FastifyInstance, opts: { endpoint: string }): Promise<void> {
  // Read once at start-up: a missing package fails the start, not a page view.
  const bodies = new Map<string, Buffer>();
  for (const [name, asset] of Object.entries(GRAPHIQL_ASSETS)) bodies.set(name, await readFile(asset.file));

  app.get('/graphiql', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/graphiql/config.json', async () => ({ endpoint: opts.endpoint }));
  app.get<{ Params: { name: string } }>('/graphiql/assets/:name', async (request, reply) => {
    const asset = GRAPHIQL_ASSETS[request.params.name];
    const body = bodies.get(request.params.name);
    if (!asset || !body) return reply.callNotFound();
    return reply.type(`${asset.type}; charset=utf-8`).header('cache-control', 'public, max-age=3600').send(body);
  });
}
