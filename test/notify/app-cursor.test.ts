// The id of an application's stream (turn-cursor.ts, AppCursor): a per-game
// list like /me/events's, with `~n` for a version whose notices were sent in
// part; a player's own /me/events id reads as one; nonsense is refused.
import t from 'tap';
import { decodeAppCursor, encodeAppCursor, encodeTurnCursor, MAX_CURSOR_GAMES, type AppCursor } from '../../src/notify/turn-cursor.ts';

const G1 = '0f9c2c3e-8d5e-4a51-9a57-3b1c6f1e2d4a';
const G2 = '5a7e0b1c-2d3e-4f50-8a9b-0c1d2e3f4a5b';

t.test('round trip, sorted by game, partial versions kept', async (t) => {
  const c: AppCursor = new Map([
    [G2, { version: 3 }],
    [G1, { version: 7, sent: 1 }],
  ]);
  const id = encodeAppCursor(c);
  t.equal(id, `${G1}@7~1,${G2}@3`);
  t.same(decodeAppCursor(id), new Map([[G1, { version: 7, sent: 1 }], [G2, { version: 3 }]]));
  t.same(decodeAppCursor(''), new Map());
  t.same(decodeAppCursor(` ${G1.toUpperCase()}@2 `), new Map([[G1, { version: 2 }]]), 'case and spaces as /me/events ids');
});

t.test('a /me/events id is an app id with nothing partial', async (t) => {
  const id = encodeTurnCursor(new Map([[G1, 4], [G2, 9]]));
  t.same(decodeAppCursor(id), new Map([[G1, { version: 4 }], [G2, { version: 9 }]]));
});

t.test('nonsense is refused', async (t) => {
  for (const bad of ['garbage', `${G1}`, `${G1}@`, `${G1}@x`, `${G1}@3~`, `${G1}@3~0`, `${G1}@0~1`, `${G1}@3~1~2`, `not-a-uuid-at-all-0000-000000000000@1`, `${G1}@1234567890`]) {
    t.equal(decodeAppCursor(bad), null, bad);
  }
  const many = Array.from({ length: MAX_CURSOR_GAMES + 1 }, () => `${G1}@1`).join(',');
  t.equal(decodeAppCursor(many), null, 'more games than the limit');
});
