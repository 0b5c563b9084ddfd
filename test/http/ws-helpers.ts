// A raw graphql-transport-ws socket for the WebSocket protocol tests (real sockets): what it
// received, how it closed, and bounded waits (test/helpers/streams.ts). Shared by
// ws-protocol.test.ts and ws-operation-ids.test.ts.
import WebSocket from 'ws';
import { within } from '../helpers/streams.ts';

export type WsMessage = { type: string; id?: unknown; payload?: any };

export interface RawSocket {
  /** Every message received, parsed, in order. */
  got: WsMessage[];
  /** The close code and reason, or null while the socket is open. */
  closed(): { code: number; reason: string } | null;
  /** Sends a text (as is), a Buffer (a binary message) or anything else as JSON. */
  send(m: unknown): void;
  /** Waits until ok() holds (each wait bounded), naming `what` if it does not. */
  until(what: string, ok: () => boolean): Promise<void>;
  /** Closes the socket from the client's side and waits for the close. */
  close(): Promise<void>;
}

/**
 * Opens a graphql-transport-ws socket to /graphql on `port`; with `init`, sends connection_init
 * with it as the payload and waits for connection_ack. The socket is terminated at `t`'s teardown.
 */
export async function openSocket(t: { teardown(fn: () => void): void }, port: number, init?: unknown): Promise<RawSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
  t.teardown(() => socket.terminate());
  const got: WsMessage[] = [];
  const waiters: Array<() => void> = [];
  let closed: { code: number; reason: string } | null = null;
  const wake = () => { for (const w of waiters.splice(0)) w(); };
  socket.on('message', (d) => { got.push(JSON.parse(String(d)) as WsMessage); wake(); });
  socket.on('close', (code, reason) => { closed = { code, reason: String(reason) }; wake(); });
  await within(new Promise((resolve) => socket.on('open', resolve)), () => 'the socket to open');
  const until = async (what: string, ok: () => boolean) => {
    while (!ok()) await within(new Promise<void>((resolve) => waiters.push(resolve)), () => `${what}; got ${JSON.stringify(got)}, closed ${JSON.stringify(closed)}`);
  };
  const send = (m: unknown) => socket.send(typeof m === 'string' || Buffer.isBuffer(m) ? m : JSON.stringify(m));
  if (init !== undefined) {
    send({ type: 'connection_init', payload: init });
    await until('connection_ack', () => got.some((m) => m.type === 'connection_ack'));
  }
  return {
    got,
    closed: () => closed,
    send,
    until,
    close: async () => {
      socket.close();
      await until('the close', () => closed !== null);
    },
  };
}
