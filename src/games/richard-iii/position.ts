/**
 * Positions from JSON, for tests and outside tools. A position starts from a
 * scenario's initial placement (nothing dealt, empty flow) and overrides what it
 * names, by block and area ids. The caller then starts the phase it wants to
 * test, e.g. `startActionPhase(s, 'York')`.
 *
 * A complete state (R3State) is itself the exportable position: it is plain
 * JSON, RNG included, so `importState(JSON.parse(JSON.stringify(s)))` continues
 * exactly as `s` would.
 */
import { BLOCK_INDEX, BLOCKS, CARD, NUM_BLOCKS, type Side } from './data.ts';
import { initialState } from './setup.ts';
import type { Attack, Frame, R3State } from './state.ts';
import { seedRng } from '../../engine/rng.ts';

export interface BlockOverride {
  /** Area id, or 'pool' | 'minor' | 'off' | 'dead'. */
  loc?: string;
  steps?: number;
  down?: boolean;
  /** 0 none, 1 moved, 2 sea-moved, 3 recruited (this game turn). */
  acted?: number;
}

export interface AttackByIds {
  attacker: Side;
  main: string | null;
  entries?: { York?: string[]; Lancaster?: string[] };
  reserves?: string[];
  pirates?: string[];
}

export interface Position {
  scenario?: string;
  seed?: string;
  /** Move every non-heir block that is on the map and not listed in `blocks` to its pool. */
  clear?: boolean;
  blocks?: Record<string, BlockOverride>;
  king?: Side;
  /** King/Pretender block ids per side (null = dead, awaiting succession). */
  crown?: { York?: string | null; Lancaster?: string | null };
  campaign?: number;
  endCampaign?: number;
  turn?: number;
  hands?: { York?: string[]; Lancaster?: string[] };
  played?: { York?: string | null; Lancaster?: string | null };
  revealed?: boolean;
  p1?: Side | null;
  attacks?: Record<string, AttackByIds>;
  treason?: Side | null;
  heirsToEnter?: { York?: number; Lancaster?: number };
  flow?: Frame[];
}

function idx(id: string): number {
  const b = BLOCK_INDEX[id];
  if (b === undefined) throw new Error(`unknown block id "${id}"`);
  return b;
}

export function buildPosition(p: Position = {}): R3State {
  const s = initialState(p.scenario ?? 'wars-of-the-roses', p.seed ?? 'position');
  if (p.clear) {
    for (let b = 0; b < NUM_BLOCKS; b++) {
      const id = BLOCKS[b]!.id;
      if (BLOCKS[b]!.type === 'heir' || p.blocks?.[id]) continue;
      if (s.loc[b] !== 'pool' && s.loc[b] !== 'minor' && s.loc[b] !== 'off' && s.loc[b] !== 'dead') s.loc[b] = 'pool';
    }
  }
  for (const [id, o] of Object.entries(p.blocks ?? {})) {
    const b = idx(id);
    if (o.loc !== undefined) s.loc[b] = o.loc;
    if (o.steps !== undefined) s.steps[b] = o.steps;
    if (o.down !== undefined) s.down[b] = o.down;
    if (o.acted !== undefined) s.acted[b] = o.acted;
  }
  if (p.king) s.king = p.king;
  if (p.crown) {
    for (const side of ['York', 'Lancaster'] as const) {
      const v = p.crown[side];
      if (v !== undefined) s.crown[side] = v === null ? null : idx(v);
    }
  }
  if (p.campaign !== undefined) s.campaign = p.campaign;
  if (p.endCampaign !== undefined) s.endCampaign = p.endCampaign;
  if (p.turn !== undefined) s.turn = p.turn;
  for (const side of ['York', 'Lancaster'] as const) {
    const h = p.hands?.[side];
    if (h) {
      for (const c of h) if (!CARD[c]) throw new Error(`unknown card id "${c}"`);
      s.hands[side] = [...h];
    }
    const pl = p.played?.[side];
    if (pl !== undefined) s.played[side] = pl;
    const n = p.heirsToEnter?.[side];
    if (n !== undefined) s.heirsToEnter[side] = n;
  }
  if (p.revealed !== undefined) s.revealed = p.revealed;
  if (p.p1 !== undefined) s.p1 = p.p1;
  if (p.treason !== undefined) s.treason = p.treason;
  for (const [area, a] of Object.entries(p.attacks ?? {})) {
    const rec: Attack = {
      attacker: a.attacker,
      main: a.main,
      entries: { York: [...(a.entries?.York ?? [])], Lancaster: [...(a.entries?.Lancaster ?? [])] },
      reserves: (a.reserves ?? []).map(idx),
      pirates: (a.pirates ?? []).map(idx),
    };
    s.attacks[area] = rec;
  }
  if (p.flow) s.flow = structuredClone(p.flow);
  return s;
}

/** Checks that a JSON value has the shape of a state and returns it (a copy). */
export function importState(json: unknown): R3State {
  const s = json as R3State;
  const ok =
    s && typeof s === 'object' && s.game === 'richard-iii' && s.v === 1 &&
    Array.isArray(s.loc) && s.loc.length === NUM_BLOCKS &&
    Array.isArray(s.steps) && s.steps.length === NUM_BLOCKS &&
    Array.isArray(s.down) && s.down.length === NUM_BLOCKS &&
    Array.isArray(s.acted) && s.acted.length === NUM_BLOCKS &&
    Array.isArray(s.rng) && s.rng.length === 4 && Array.isArray(s.flow);
  if (!ok) throw new Error('not a Richard III state (see src/games/richard-iii/README.md)');
  const copy = structuredClone(s);
  // A state saved before logFrom existed holds the whole log: a change from line 0.
  if (typeof copy.logFrom !== 'number') copy.logFrom = 0;
  return copy;
}

/** A fresh RNG for a position, so a test can pick the dice it needs by seed. */
export function reseed(s: R3State, seed: string): void {
  s.rng = seedRng(seed);
}
