// GET /: a small HTML page for a person who opens the server in a browser,
// linking to the API docs, GraphiQL (when served), the OpenAPI document and the
// health checks, the game types it hosts, and the first steps of the README's
// REST tour with a game of the first of them.
import type { FastifyInstance } from 'fastify';

/** A hosted game type, as the page lists it (GET /game-types). */
export interface HomeGameType {
  id: string;
  title: string;
  roles: readonly string[];
  scenarios: readonly { id: string; name: string }[];
}

export interface HomeOptions {
  version: string;
  /** Link to /graphiql (only served outside production). */
  graphiql: boolean;
  /** The hosted game types; the quick start creates a game of the first. */
  gameTypes: readonly HomeGameType[];
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The quick start's game: the first game type, its scenario named as the type (else its first), its first seat. */
function example(types: readonly HomeGameType[]): string {
  const g = types[0];
  if (!g) return '{"gameType":"…","scenario":"…","roles":["…"]}';
  const scenario = (g.scenarios.find((s) => s.id === g.id) ?? g.scenarios[0])?.id ?? '…';
  return JSON.stringify({ gameType: g.id, scenario, roles: [g.roles[0] ?? '…'] });
}

export function homePage(opts: HomeOptions): string {
  const links: Array<[string, string]> = [
    ['/docs', 'API documentation (Swagger UI)'],
    ...(opts.graphiql ? [['/graphiql', 'GraphiQL, to try the GraphQL API at /graphql'] as [string, string]] : []),
    ['/openapi.yaml', 'OpenAPI 3.1 description (YAML)'],
    ['/docs/json', 'OpenAPI 3.1 description (JSON)'],
    ['/healthz', 'Liveness'],
    ['/readyz', 'Readiness (database and bus)'],
    ['#quick-start', 'Quick start'],
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Herald</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="data:,">
  <style>
    body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
    pre { background: #f4f4f4; padding: .75rem; overflow-x: auto; }
  </style>
</head>
<body>
  <h1>Herald <small>${opts.version}</small></h1>
  <p>A game-state server for two-player block wargames, played over REST and GraphQL.</p>
  <ul>
${links.map(([href, text]) => `    <li><a href="${href}">${text}</a> <code>${href.startsWith('#') ? '' : href}</code></li>`).join('\n')}
  </ul>
  <h2 id="game-types">Games</h2>
  <ul>
${opts.gameTypes.map((g) => `    <li>${escape(g.title)} <code>${escape(g.id)}</code>: seats ${escape(g.roles.join(', '))}; scenarios ${g.scenarios.map((sc) => `<code>${escape(sc.id)}</code>`).join(', ')}</li>`).join('\n')}
  </ul>
  <h2 id="quick-start">Quick start</h2>
  <p>Sign up (the answer holds your API key, shown once), then create a game and take a seat.
  The whole tour, up to moves by both seats, is in the README's “Playing over REST”.</p>
  <pre>HERALD=\${HERALD:-http://localhost:3000}
curl -s -XPOST $HERALD/players -H 'content-type: application/json' -d '{"name":"Ada"}'
curl -s -XPOST $HERALD/games -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -d '${example(opts.gameTypes).replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)}'</pre>
</body>
</html>
`;
}

export default async function home(app: FastifyInstance, opts: HomeOptions): Promise<void> {
  const page = homePage(opts);
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
