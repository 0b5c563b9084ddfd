// openapi.yaml under a stricter linter than the schema validator of
// test/http/openapi.test.ts: Redocly CLI's recommended rules (redocly.yaml),
// which catch what the validator lets through (an unquoted description whose
// comma made a junk property, operations without a security declaration,
// examples that their schema does not describe). Zero errors, zero warnings.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { projectRoot } from '../../src/paths.ts';

const run = promisify(execFile);

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string; start?: { line: number } }> }>;
}

async function lint(file: string): Promise<LintReport> {
  const cli = path.join(projectRoot, 'node_modules/@redocly/cli/bin/cli.js');
  // Exit code 1 means problems found: the report on stdout says which.
  const result = await run(process.execPath, [cli, 'lint', file, '--config', path.join(projectRoot, 'redocly.yaml'), '--format=json'], {
    cwd: projectRoot,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string }) => {
    if (!err.stdout) throw err;
    return { stdout: err.stdout, stderr: err.stderr ?? '' };
  });
  return JSON.parse(result.stdout) as LintReport;
}

t.test('Redocly CLI finds no error and no warning in openapi.yaml', async (t) => {
  const report = await lint('openapi.yaml');
  const summary = report.problems.map((p) => `${p.severity} ${p.ruleId} line ${p.location[0]?.start?.line}: ${p.message}`);
  t.same(summary, [], 'no problems');
  t.same(report.totals, { errors: 0, warnings: 0, ignored: 0 });
});

t.test('the lint fails on the mistake it was brought in for', async (t) => {
  // An unquoted YAML description with ", " becomes a second key: the schema
  // validator accepts the extra property, the linter does not.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'herald-lint-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const text = await readFile(path.join(projectRoot, 'openapi.yaml'), 'utf8');
  const broken = text.replace("description: 'The key''s first characters, for support.'", "description: The key's first characters, for support.");
  t.not(broken, text, 'the fixture changed the document');
  await writeFile(path.join(dir, 'openapi.yaml'), broken);
  const report = await lint(path.join(dir, 'openapi.yaml'));
  t.match(report.problems, [{ ruleId: 'struct', severity: 'error', message: /for support\./ }]);
  t.equal(report.totals.errors, 1);
});
