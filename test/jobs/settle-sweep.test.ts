// The settlement sweep's scheduling: a run at start, runs that never overlap, failures logged
// and retried on the next tick, and stop() that waits for the run in progress and starts no
// other. (What a sweep settles is tested in test/service/ratings.test.ts.)
import t from 'tap';
import { startSettleSweep } from '../../src/jobs/settle-sweep.ts';

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
};

function logger() {
  const warned: object[] = [];
  const infos: object[] = [];
  return { warned, infos, log: { warn: (o: object) => void warned.push(o), info: (o: object) => void infos.push(o) } };
}

t.test('runs once at start, never two at a time, and stop() waits for the run in progress', async (t) => {
  const { log, infos } = logger();
  let calls = 0;
  let release: (n: number) => void = () => {};
  const sweep = () => {
    calls++;
    return new Promise<number>((r) => (release = r));
  };
  const job = startSettleSweep({ sweep, intervalMs: 1, log });
  t.equal(calls, 1, 'the first run starts at once');
  // Many intervals pass while the first run is pending: no second run starts.
  await new Promise((r) => setTimeout(r, 30));
  t.equal(calls, 1, 'no overlapping run');
  release(3);
  await until(() => calls >= 2);
  t.ok(calls >= 2, 'the next tick runs again once the first finished');
  t.same(infos[0], { settled: 3 }, 'a run that settled games says how many');
  let stopped = false;
  const stopping = job.stop().then(() => (stopped = true));
  await new Promise((r) => setTimeout(r, 10));
  t.equal(stopped, false, 'stop waits for the run in progress');
  const before = calls;
  release(0);
  await stopping;
  await new Promise((r) => setTimeout(r, 20));
  t.equal(calls, before, 'no run after stop');
});

t.test('a failing run is logged, and the next tick tries again', async (t) => {
  const { log, warned } = logger();
  let calls = 0;
  const job = startSettleSweep({
    sweep: async () => {
      calls++;
      if (calls === 1) throw new Error('database down');
      return 0;
    },
    intervalMs: 1,
    log,
  });
  await until(() => calls >= 2);
  await job.stop();
  t.ok(calls >= 2);
  t.equal(warned.length, 1);
  t.match(warned[0], { err: { message: 'database down' } });
});
