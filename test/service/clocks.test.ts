// Clocks at the service level (issue 15), on real Postgres with the service's clock injected:
// time moves forward by setting `clock.now`, never by sleeping.
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, ServiceError, type Caller, type GameSummary } from '../../src/service/api.ts';
import { DAY, HOUR } from '../../src/clocks/index.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const clock = { now: Date.UTC(2027, 0, 4, 12) };
const now = () => clock.now;
const svc = createGameService({ store, bus, now });
const db = store.pool;
const GT = 'richard-iii';

let n = 0;
async function player(name = `P${++n}`): Promise<Caller> {
  const r = await svc.createPlayer(null, { name });
  return svc.authenticate(r.key!.key);
}

async function game(york: Caller, lancaster: Caller, timeControl: unknown, rated = false): Promise<GameSummary> {
  const g = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], rated, timeControl: timeControl as never });
  return svc.join(lancaster, g.id, {});
}

/** The first legal action of `role`, submitted by its holder. */
async function move(who: Caller, gameId: string, role: string): Promise<GameSummary> {
  const legal = await svc.getLegalActions(who, gameId, { role });
  const r = await svc.submitAction(who, gameId, { role, action: legal.actions[0] as never });
  return r.game;
}

async function rejects(t: Test, p: Promise<unknown>, code: string, msg: string): Promise<void> {
  try {
    await p;
    t.fail(`${msg}: resolved`);
  } catch (err) {
    t.ok(err instanceof ServiceError && err.code === code, `${msg}: ${(err as Error).message}`);
  }
}

const seat = (g: GameSummary, role: string) => g.clock!.seats.find((s) => s.role === role)!;

t.test('explore', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 3 });
  const holders: Record<string, Caller> = { York: a, Lancaster: b };
  let cur = g;
  for (let i = 0; i < 12 && cur.status === 'active'; i++) {
    const role = cur.activeRoles[i % cur.activeRoles.length]!;
    clock.now += HOUR;
    const legal = await svc.getLegalActions(holders[role]!, g.id, { role });
    cur = (await svc.submitAction(holders[role]!, g.id, { role, action: legal.actions[0] as never })).game;
    console.log(i, role, JSON.stringify(legal.actions.slice(0, 3)), cur.activeRoles);
  }
  const { rows } = await db.query('SELECT clocks FROM games WHERE id = $1', [g.id]);
  console.log(JSON.stringify(rows[0].clocks));
});
