// The action's answer and the SSE version event are written as JSON text with
// the view's text spliced in (src/http/json-text.ts): the texts must be
// exactly what JSON.stringify gives for the same values, and a view is
// serialised once for both.
import t from 'tap';
import { actionAnswerText, jsonText, versionEventText } from '../../src/http/json-text.ts';
import type { VersionEvent } from '../../src/notify/game-feed.ts';
import type { GameSummary } from '../../src/service/api.ts';
import type { Json } from '../../src/bus/bus.ts';

const view = { board: [{ id: 'a', name: 'Quote " and \\ backslash' }], hand: [1, 2, 3], hidden: null, note: 'é ✓' };
const game = { id: 'g', version: 4, status: 'active', activeRoles: ['York'], clock: null } as unknown as GameSummary;

t.test('the answer text is JSON.stringify of the answer', async (t) => {
  const legalActions: Json[] = [{ type: 'pass' }, { type: 'move', to: 3 }];
  const answer = { version: 4, role: 'York', game, view, legalActions };
  t.equal(actionAnswerText(answer), JSON.stringify(answer));
  t.same(JSON.parse(actionAnswerText({ ...answer, legalActions: [] })), { ...answer, legalActions: [] });
});

t.test('the version event text is JSON.stringify of the event, with or without view, clock and time', async (t) => {
  const base: VersionEvent = {
    gameId: 'g', version: 4, type: 'action', role: 'York', playerId: 'p', status: 'active', activeRoles: ['Lancaster'], seat: 'York', view, clock: null,
  };
  const events: VersionEvent[] = [
    base,
    { ...base, at: '2026-01-01T00:00:00.000Z' },
    { ...base, view: null, at: '2026-01-01T00:00:00.000Z' },
    { ...base, seat: null, clock: { York: { remainingMs: 1000, running: true } } as unknown as VersionEvent['clock'] },
    { ...base, type: 'created', version: 0, role: null, playerId: null, status: 'setup', activeRoles: [] },
  ];
  for (const e of events) t.equal(versionEventText(e), JSON.stringify(e));
});

t.test('a view is serialised once for the answer and the event; values that are not objects are not kept', async (t) => {
  const v = { n: 1 };
  const first = jsonText(v);
  v.n = 2; // views are never mutated: this only shows that the text was not made again
  t.equal(jsonText(v), first, 'the text made for the answer serves the event');
  t.equal(jsonText('x'), '"x"');
  t.equal(jsonText(null), 'null');
  t.equal(jsonText(3), '3');
});
