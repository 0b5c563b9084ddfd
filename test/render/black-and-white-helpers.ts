// Black & White games for the picture tests: the invented data file shipped
// with Herald (src/games/black-and-white/data/invented-data.json), and random
// seeded games played on it, every state kept.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomInt, seedRng } from '../../src/engine/rng.ts';
import { createBlackAndWhite } from '../../src/games/black-and-white/index.ts';
import { validateBlackAndWhiteData } from '../../src/games/black-and-white/validate-data.ts';
import type { BWState } from '../../src/games/black-and-white/state.ts';
import type { Action } from '../../src/games/black-and-white/flow.ts';
import { projectRoot } from '../../src/paths.ts';

export const INVENTED_FILE = path.join(projectRoot, 'src/games/black-and-white/data/invented-data.json');

function load() {
  const v = validateBlackAndWhiteData(JSON.parse(readFileSync(INVENTED_FILE, 'utf8')), INVENTED_FILE);
  if (!v.ok) throw new Error(`invented data invalid: ${JSON.stringify(v.problems)}`);
  return v.data;
}

export const INVENTED = load();
export const bw = createBlackAndWhite(INVENTED);

/**
 * One random game: every state from setup on (index = version - 1 before the
 * first action is the setup's). Plays on rather than ends early, so that
 * games reach combat; at most `maxSteps` actions.
 */
export function randomGame(scenario: string, seed: string, maxSteps = 1500): BWState[] {
  const pick = seedRng(`pick:${seed}`);
  let s = bw.setup({ scenario, seed, options: {} });
  const states = [s];
  for (let step = 0; step < maxSteps && !bw.status(s).over; step++) {
    const roles = bw.activeRoles(s);
    if (roles.length === 0) break;
    const role = roles[randomInt(pick, roles.length)]!;
    const legal = bw.legalActions(s, role) as Action[];
    const weighted = legal.filter((a) => a.type !== 'end-turn' && a.type !== 'end-activation' && a.type !== 'undo');
    const pool = weighted.length && randomInt(pick, 10) > 0 ? weighted : legal;
    s = bw.apply(s, role, pool[randomInt(pick, pool.length)]!);
    states.push(s);
  }
  return states;
}

/** Opening and closing tags balance (self-closing ones aside). */
export function balanced(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (m[3]) continue;
    if (!m[1]) stack.push(m[2]!);
    else if (stack.pop() !== m[2]) return false;
  }
  return stack.length === 0;
}
