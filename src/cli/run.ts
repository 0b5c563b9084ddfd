/**
 * Runs one herald command line and turns every failure into its exit code
 * (errors.ts). main.ts calls it with the process's streams; tests may call it
 * with their own.
 */
import { CommanderError } from 'commander';
import { HeraldClient } from './api.ts';
import { buildProgram, type Io } from './program.ts';
import { CliError, EXIT } from './errors.ts';

export async function run(argv: string[], io: Io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const program = buildProgram(io);
  program.exitOverride();
  // Commander's own exits (help, version, usage errors) become codes 0 or 1.
  for (const cmd of allCommands(program)) cmd.exitOverride();
  const json = argv.includes('--json');
  HeraldClient.answers = 0;
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (err instanceof CliError) {
      if (json) io.stderr.write(`${JSON.stringify({ error: err.message, exitCode: err.exitCode, problem: err.problem })}\n`);
      else io.stderr.write(`herald: ${err.message}\n`);
      return err.exitCode;
    }
    // Local troubles (files, the terminal) are CliErrors where they arise (exit 1). A TypeError or
    // RangeError after the server answered is that answer's shape failing this client's reading of
    // it (a server that is not Herald, or not this version); anything else is unexpected: its
    // message alone. One line either way, not a stack; HERALD_DEBUG=1 shows the stack.
    const name = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    const fromAnswer = HeraldClient.answers > 0 && (err instanceof TypeError || err instanceof RangeError);
    const message = fromAnswer
      ? `the server's answer is not what this client expects (${name}); is the server a Herald server of this version?`
      : err instanceof Error ? err.message.split('\n')[0]! : String(err);
    if (json) io.stderr.write(`${JSON.stringify({ error: message, exitCode: EXIT.unreachable, problem: null })}\n`);
    else io.stderr.write(`herald: ${message}\n`);
    if (io.env.HERALD_DEBUG === '1' && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return EXIT.unreachable;
  }
}

function allCommands(cmd: import('commander').Command): import('commander').Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}
