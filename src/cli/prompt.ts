/**
 * Questions on the terminal, answered a line at a time. Works the same when
 * stdin is a pipe (scripts, tests): lines read ahead wait in the iterator's
 * buffer, and the end of input answers null.
 */
import readline from 'node:readline';
import { fileError } from './errors.ts';

export interface Asker {
  ask(question: string): Promise<string | null>;
  close(): void;
}

export function asker(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Asker {
  const rl = readline.createInterface({ input, ...(process.stdin.isTTY && input === process.stdin ? { output, terminal: true } : { terminal: false }) });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async ask(question) {
      output.write(question);
      let next: IteratorResult<string>;
      try {
        next = await lines.next();
      } catch (err) {
        // The terminal or pipe failed: a local trouble (exit 1), not the server's.
        throw fileError('read', 'standard input', err);
      }
      if (next.done) {
        output.write('\n');
        return null;
      }
      // Piped answers do not echo: show them so a transcript reads like a session.
      if (!process.stdin.isTTY || input !== process.stdin) output.write(`${next.value}\n`);
      return next.value.trim();
    },
    close() {
      rl.close();
    },
  };
}
