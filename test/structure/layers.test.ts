// The layering of src/ (see the project guide), checked on every import
// statement: engine ← games, leagues, clocks ← service ← http, with store and bus under the
// service, notify between the service and http, and main.ts on top. A lower
// layer never imports an upper one (the service must not know HTTP), and
// nothing in src imports test/ or scripts/ (harnesses live there, never in src).
import t from 'tap';
import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';

const SRC = path.join(projectRoot, 'src');

/** Root modules every layer may use (configuration, error helpers, paths): they import no layer. */
const SHARED = ['config.ts', 'errors.ts', 'paths.ts'];

/** What each layer may import (besides itself). `*`: any layer of src. */
const ALLOWED: Record<string, readonly string[]> = {
  engine: [],
  games: ['engine'],
  /** Pure league logic over results (it may use pure npm packages: matching, Glicko-2). */
  leagues: ['engine'],
  /** Pure clock arithmetic (issue 15): time controls, clocks, reminders, vacation, timeouts. */
  clocks: ['engine'],
  /** Board pictures (issue 16), pure: from a seat's view to SVG/PNG; it never sees the server's state. */
  render: ['engine', 'games', 'i18n', 'shared'],
  /** Languages and message formatting (issue 16): pure; games provide the catalogues and messages, the service formats them. */
  i18n: ['engine'],
  /**
   * Computer players (issue 20), pure: they search through the GameModule
   * contract from a seat's view. They import no game, so they cannot name
   * (let alone read) a game's state type; the service hands them a module.
   */
  ai: ['engine'],
  bus: ['shared'],
  store: ['generated', 'shared'],
  service: ['engine', 'games', 'ai', 'leagues', 'clocks', 'render', 'i18n', 'store', 'bus', 'generated', 'webhooks', 'shared'],
  /** Webhook mechanics (issue 17): SSRF guard, signatures, retry schedule, one POST; no database, no service. */
  webhooks: ['shared'],
  /** Scheduled work (timers the app owns): it calls the service and knows no HTTP. */
  jobs: ['service', 'shared'],
  notify: ['service', 'bus', 'shared'],
  http: ['engine', 'games', 'leagues', 'clocks', 'i18n', 'store', 'bus', 'service', 'notify', 'jobs', 'shared'],
  /** The herald command-line client (issue 17): it talks to a server over HTTP only, so it imports no layer. */
  cli: [],
  'main.ts': ['*'],
  shared: ['shared'],
};

/** Packages that are HTTP: only http (and notify's Fastify plugin) may use them. */
const HTTP_PACKAGE = /^(fastify|fastify-plugin|@fastify\/.*|mercurius|graphql)(\/.*)?$/;
const NO_HTTP_PACKAGES = new Set(['engine', 'games', 'ai', 'leagues', 'clocks', 'render', 'i18n', 'bus', 'store', 'service', 'jobs', 'cli', 'webhooks']);
/** The rules are pure: no npm packages (node: built-ins only). */
const NO_PACKAGES = new Set(['engine', 'games', 'clocks', 'ai']);

/** The layer of a path relative to the project root, or null outside src/. */
function layerOf(rel: string): string | null {
  const parts = rel.split(path.sep);
  if (parts[0] !== 'src') return null;
  if (parts.length === 2) return SHARED.includes(parts[1]!) ? 'shared' : parts[1]!;
  return parts[1]!;
}

export interface SourceFile {
  /** Relative to the project root, e.g. src/service/errors.ts. */
  file: string;
  text: string;
}

/** Every import that breaks the layering, as "file: import (why)". */
export function violations(files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const { file, text } of files) {
    const from = layerOf(file);
    if (from === null || from === 'generated') continue;
    const allowed = ALLOWED[from];
    if (!allowed) {
      found.push(`${file}: layer "${from}" is not in test/structure/layers.test.ts's table`);
      continue;
    }
    // Static imports, re-exports (export … from) and dynamic import('…'); comments and strings are not imports.
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const { fileName: spec } of importedFiles) {
      if (spec.startsWith('.')) {
        const target = path.normalize(path.join(path.dirname(file), spec));
        const to = layerOf(target);
        if (to === null) found.push(`${file}: ${spec} (src imports nothing outside src/, e.g. test/ or scripts/)`);
        else if (to !== from && !allowed.includes('*') && !allowed.includes(to)) found.push(`${file}: ${spec} (${from} may not import ${to})`);
      } else if (!spec.startsWith('node:')) {
        if (NO_PACKAGES.has(from)) found.push(`${file}: ${spec} (${from} is pure: no packages)`);
        else if (NO_HTTP_PACKAGES.has(from) && HTTP_PACKAGE.test(spec)) found.push(`${file}: ${spec} (${from} must not know HTTP)`);
      }
    }
  }
  return found;
}

function sourceFiles(dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(abs));
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name)) out.push({ file: path.relative(projectRoot, abs), text: readFileSync(abs, 'utf8') });
  }
  return out;
}

t.test('src/ keeps its layers', async (t) => {
  const files = sourceFiles(SRC);
  t.ok(files.some((f) => f.file === path.join('src', 'service', 'errors.ts')), 'scans src/');
  t.same(violations(files), []);
});

t.test('the check catches each kind of violation', async (t) => {
  const src = (p: string) => path.join('src', ...p.split('/'));
  const cases: Array<[SourceFile, RegExp]> = [
    [{ file: src('service/errors.ts'), text: "import { HttpProblem } from '../http/problem.ts';" }, /service may not import http/],
    [{ file: src('service/api.ts'), text: "export { problem } from '../http/problem.ts';" }, /service may not import http/],
    [{ file: src('store/games.ts'), text: "const m = await import('../service/api.ts');" }, /store may not import service/],
    [{ file: src('engine/rng.ts'), text: "import type { GameDef } from '../games/index.ts';" }, /engine may not import games/],
    [{ file: src('games/index.ts'), text: "import { x } from '../service/api.ts';" }, /games may not import service/],
    [{ file: src('bus/bus.ts'), text: "import { y } from '../http/app.ts';" }, /bus may not import http/],
    [{ file: src('notify/sse.ts'), text: "import { y } from '../http/app.ts';" }, /notify may not import http/],
    [{ file: src('config.ts'), text: "import { y } from './service/api.ts';" }, /shared may not import service/],
    [{ file: src('service/reads.ts'), text: "import type { FastifyRequest } from 'fastify';" }, /must not know HTTP/],
    [{ file: src('games/index.ts'), text: "import Redis from 'ioredis';" }, /pure: no packages/],
    [{ file: src('http/app.ts'), text: "import { fuzz } from '../../test/helpers/services.ts';" }, /nothing outside src/],
    [{ file: src('service/x.ts'), text: "import { fuzz } from '../../scripts/fuzz.ts';" }, /nothing outside src/],
    [{ file: src('newlayer/x.ts'), text: '' }, /not in .* table/],
    [{ file: src('ai/search.ts'), text: "import type { R3State } from '../games/richard-iii/state.ts';" }, /ai may not import games/],
    [{ file: src('ai/search.ts'), text: "import { Piscina } from 'piscina';" }, /pure: no packages/],
    [{ file: src('cli/program.ts'), text: "import { openStore } from '../store/store.ts';" }, /cli may not import store/],
  ];
  for (const [file, why] of cases) {
    const found = violations([file]);
    t.equal(found.length, 1, file.text || file.file);
    t.match(found[0], why);
  }
  // Allowed directions, and imports that only look like imports.
  t.same(
    violations([
      { file: src('http/app.ts'), text: "import { ServiceError } from '../service/api.ts';\nimport fp from 'fastify-plugin';" },
      { file: src('service/api.ts'), text: "import type { Json } from '../bus/bus.ts';\n// from '../http/app.ts'\nconst s = \"import '../http/x.ts'\";" },
      { file: src('main.ts'), text: "import { buildApp } from './http/app.ts';" },
    ]),
    [],
  );
});
