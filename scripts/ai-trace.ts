// `npx tsx scripts/ai-trace.ts --scenario kingmaker --game 3 [--ai Lancaster] [--level normal] [--quiet]`:
// one game of an AI level against random play, from the same seed as bench:ai's
// game N (`bench-ai:N:scenario`), printing the usurpation count and the
// evaluation at each game turn, the AI's decisions and the public log. For
// diagnosing why the AI loses (src/ai/README.md); not a benchmark. Reads full
// states for the printout; the AI itself still sees only its seat's view.
import { chooseAction, chooseRandom, type AiLevel } from '../src/ai/index.ts';
import { onlyWaiting } from '../src/ai/ismcts.ts';
import { richardIII } from '../src/games/richard-iii/index.ts';
import { evaluate } from '../src/games/richard-iii/evaluate.ts';
import { usurpationCount } from '../src/games/richard-iii/political-turn.ts';
import { BLOCKS, NUM_BLOCKS, AREA } from '../src/games/richard-iii/data.ts';
import { ownerOf, type R3State } from '../src/games/richard-iii/state.ts';
import type { AnyGameModule } from '../src/ai/types.ts';

const M = richardIII as unknown as AnyGameModule;
const arg = (n: string): string | undefined => { const i = process.argv.indexOf(`--${n}`); return i >= 0 ? process.argv[i + 1] : undefined; };
const scenario = arg('scenario') ?? 'kingmaker';
const g = Number(arg('game') ?? 0);
const aiSeat = arg('ai') ?? 'Lancaster';
const level = (arg('level') ?? 'normal') as AiLevel;
const quiet = process.argv.includes('--quiet');
const seed = `bench-ai:${g}:${scenario}`;

function board(s: R3State): string {
  const by = new Map<string, string[]>();
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const loc = s.loc[b]!;
    if (!AREA[loc] || s.down[b]) continue;
    const d = BLOCKS[b]!;
    const tag = `${ownerOf(s, b)[0]}:${d.id}${d.type === 'heir' ? '*' : ''}${s.steps[b]}`;
    by.set(loc, [...(by.get(loc) ?? []), tag]);
  }
  return [...by].map(([a, bs]) => `${a}[${bs.join(' ')}]`).join(' ');
}

let s = M.setup({ scenario, seed }) as R3State;
let n = 0, lastTurn = -1;
while (!M.status(s).over && n < 5000) {
  if (s.turn !== lastTurn) {
    lastTurn = s.turn;
    console.log(`\n=== turn ${s.turn} king ${s.king}: count York ${usurpationCount(s, 'York')} Lancaster ${usurpationCount(s, 'Lancaster')}; eval(${aiSeat}) ${evaluate(s, aiSeat).toFixed(3)}`);
    if (!quiet) console.log(`    ${board(s)}`);
  }
  const role = M.activeRoles(s).find((r) => !onlyWaiting(M.legalActions(s, r)));
  if (!role) break;
  const legal = M.legalActions(s, role).filter((a) => (a as { type?: string }).type !== 'undo' && (a as { type?: string }).type !== 'take_back');
  const use = legal.length ? legal : M.legalActions(s, role);
  const sd = `${seed}:${n}`;
  const d = role === aiSeat ? chooseAction(M, { gameType: M.id, role, view: M.view(s, role), legalActions: use, level, seed: sd }) : chooseRandom({ legalActions: use, seed: sd });
  if (role === aiSeat && use.length > 1 && !quiet) console.log(`  AI ${JSON.stringify(d.action)}  (of ${use.length})`);
  s = M.apply(s, role, d.action) as R3State;
  if (!quiet) for (const l of s.log) console.log(`    | ${l.own?.side === aiSeat ? l.own.text : l.pub}`);
  n++;
}
const st = M.status(s);
console.log(`\nRESULT ${scenario} game ${g}: winner ${st.winner} (${(s.result as { reason?: string } | null)?.reason ?? ''}); final count York ${usurpationCount(s, 'York')} Lancaster ${usurpationCount(s, 'Lancaster')}`);
console.log(board(s));
