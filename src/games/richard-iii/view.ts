/**
 * What one seat may see of a Richard III state, built by allow-list: every view
 * starts empty and each field below was added on purpose (design-lessons.md,
 * "Views by allow-list"). A new field in R3State stays invisible until someone
 * adds it here and says why it is public.
 *
 * Fog of war (RULES.md Introduction, 6.1; INTERPRETATIONS 53):
 * - A seat sees its own blocks fully: id, place, strength, face-down, what it did
 *   this turn, whether it is a Reserve or a Pirate in a pending battle.
 * - Enemy blocks are seen only as blocks of their colour in their area: counts per
 *   area and side (upright / face-down / already acted this turn). A count cannot
 *   depend on which block is where, so no identity leaks through ordering.
 * - Exceptions, all public record: blocks revealed in the battle being fought
 *   (6.1 — the battle module lists them in its frame), permanently dead blocks,
 *   minor heirs, off-map versions of two-version blocks (changes of side happen in
 *   battles, in the open), the Rebel's place (the only black block), the King and
 *   Pretender identities and the Kingmaker prisoner.
 * - Pools: the number of blocks (upright / face-down) per side. Public because the
 *   pool stands on the table in view of both players (Introduction: only the label
 *   is hidden) and INTERPRETATIONS 53 lists it; it also follows from public facts
 *   (blocks of a side minus those on the map, dead, minors and off-map versions).
 * - Cards: own hand and played card; hand sizes and whether a card is down; the
 *   opponent's card only once both are revealed; the cards played in earlier turns
 *   of the campaign (each was revealed when played). Never the deck, the RNG, the
 *   undo stack, the opponent's hand.
 * - Flow: every frame of the flow stack as the seat may see it (flow-view.ts, which
 *   says per field why it is public or the seat's own), for computer players that
 *   rebuild states from the view (sample-state.ts).
 * - Log: each entry's owner-only text for its owner, the public text otherwise.
 * Spectators (seat null) get only what both seats see.
 */
import { AREA, BLOCK_INDEX, BLOCKS, CARDS, NUM_BLOCKS, SIDES, other, type Side } from './data.ts';
import { battleFrame } from './battle-state.ts';
import type { HandlerTable } from './flow.ts';
import { ownerOf, top, type LogEntry, type R3State } from './state.ts';
import { HANDLERS } from './index.ts';
import { flowView, type FrameView } from './flow-view.ts';
import { whereaboutsView } from './whereabouts.ts';

/** One of the seat's own blocks. */
export interface OwnBlockView {
  id: string;
  /** Area id, or 'pool' | 'minor' | 'off' | 'dead'. */
  loc: string;
  steps: number;
  down: boolean;
  /** 0 none, 1 moved, 2 sea-moved, 3 recruited (this game turn). */
  acted: number;
  /** Entered a pending battle as a Reserve (6.3) / by Piracy. */
  reserve?: true;
  pirate?: true;
}

/** Blocks of one side in one area, as the enemy sees them. */
export interface AreaCount {
  /** Blocks standing there, face-down ones included. */
  n: number;
  /** Of these, face-down (eliminated mercenaries at home, the Kingmaker prisoner). */
  down: number;
  /** Of these, blocks that moved, sea-moved or were recruited this game turn (moves are made in the open). */
  acted: number;
}

/** A block revealed in the battle being fought (6.1): identity and current strength. */
export interface RevealedBlockView {
  id: string;
  side: Side;
  loc: string;
  steps: number;
}

export interface R3View {
  game: 'richard-iii';
  scenario: string;
  campaign: number;
  endCampaign: number;
  turn: number;
  seat: Side | null;
  king: Side;
  pretender: Side;
  /** King / Pretender block per side (null while awaiting succession). */
  crown: { York: string | null; Lancaster: string | null };
  prisoner: string | null;
  heirsToEnter: { York: number; Lancaster: number };
  result: { winner: Side | null; reason: string } | null;
  cards: {
    revealed: boolean;
    p1: Side | null;
    handSize: { York: number; Lancaster: number };
    /** A card id when the seat may see it, 'hidden' for a face-down card it may not, null for none. */
    played: { York: string | null; Lancaster: string | null };
    mulligan: { York: boolean; Lancaster: boolean };
    treason: Side | null;
    /**
     * Cards played in earlier Game Turns of this campaign, in deck order: each was
     * revealed face-up when played (1.1), so they are public record. (All 25 cards
     * minus the deck, the hands and this turn's cards.)
     */
    discards: string[];
  };
  /** The seat's hand (absent for spectators). */
  hand?: string[];
  /** The seat's own blocks, in data/blocks.json order (absent for spectators). */
  blocks?: OwnBlockView[];
  /** Blocks per area (map and exile) and side; areas with no block are left out. */
  areas: Record<string, Partial<Record<Side, AreaCount>>>;
  pools: Record<Side, { n: number; down: number }>;
  /**
   * Per exile area and side, how many of the upright blocks counted in `areas`
   * are that area's own mercenaries (free of its limit, 7.2 ); areas with
   * none are left out. Public as far as the counts go: exile limits are
   * enforced in the open (the owner must give up blocks, or not), and the
   * exile-limit prompts every seat sees depend on it (fog.test.ts keeps it when
   * it scrambles hidden blocks). Never which mercenary.
   */
  exileMercenaries: Record<string, Partial<Record<Side, number>>>;
  minors: Record<Side, string[]>;
  dead: string[];
  off: string[];
  rebel: { loc: string; down: boolean };
  borderUse: Record<string, number>;
  attacks: Record<string, {
    attacker: Side;
    main: string | null;
    entries: { York: string[]; Lancaster: string[] };
    reserves: { York: number; Lancaster: number };
    pirates: { York: number; Lancaster: number };
  }>;
  battle: { area: string; blocks: RevealedBlockView[] } | null;
  prompt: { state: string; side: Side | 'both' | null; active: Side[]; [k: string]: unknown };
  /**
   * Every frame of the flow stack, bottom first, as this seat may see it
   * (flow-view.ts): the prompt shows only the top one; a computer player that
   * rebuilds whole states from its view (sample-state.ts) needs them all.
   */
  flow: FrameView[];
  /**
   * The log lines the change that made this version wrote, as this seat may
   * read them; they replace the log's lines from `logFrom` on (an undo takes
   * lines back). The whole log: GET /games/{id}/log.
   */
  log: string[];
  logFrom: number;
  /**
   * The seat's knowledge of where the enemy's blocks stand (whereabouts.ts): enemy
   * block id → the places (area ids, 'pool') it may stand in, from public facts
   * only (the scenario's printed set-up, moves made in the open, battles, counts).
   * Blocks whose place is public by name (dead, minors, off) are left out. Absent
   * for spectators and in games stored before it was tracked.
   */
  whereabouts?: Record<string, string[]>;
}

const REBEL = BLOCK_INDEX['rebel']!;

/**
 * The blocks face-up in the battle being fought, and its area: battle.ts keeps
 * them in its `battle` frame (`revealed`, 6.1; Reserves are added when they
 * join). Only blocks still standing in the battle area are shown: a block that
 * retreated stands upright again (6.1).
 */
export function battleReveal(s: R3State): { area: string; blocks: number[] } | null {
  const bf = battleFrame(s);
  if (!bf) return null;
  const blocks = bf.revealed.filter((b) => s.loc[b] === bf.area).sort((a, b) => a - b);
  return { area: bf.area, blocks: [...new Set(blocks)] };
}

/** Sides that may act now (both during simultaneous play, when each still has something to do). */
function activeSides(s: R3State, handlers: HandlerTable): Side[] {
  if (s.result || s.flow.length === 0) return [];
  const f = top(s);
  if (f.side === 'both') {
    const h = handlers[f.s];
    return h ? SIDES.filter((side) => h.actions(s, f, side).length > 0) : [];
  }
  return f.side === 'York' || f.side === 'Lancaster' ? [f.side] : [];
}

function attackView(s: R3State): R3View['attacks'] {
  const out: R3View['attacks'] = {};
  for (const area of Object.keys(s.attacks).sort()) {
    const a = s.attacks[area]!;
    const reserves = { York: 0, Lancaster: 0 };
    const pirates = { York: 0, Lancaster: 0 };
    for (const b of a.reserves) reserves[ownerOf(s, b)]++;
    for (const b of a.pirates) pirates[ownerOf(s, b)]++;
    out[area] = {
      attacker: a.attacker,
      main: a.main,
      entries: { York: [...a.entries.York], Lancaster: [...a.entries.Lancaster] },
      reserves,
      pirates,
    };
  }
  return out;
}

/** Cards played in earlier Game Turns of this campaign (see R3View.cards.discards), in deck order. */
function discards(s: R3State): string[] {
  const out = new Set<string>();
  for (const c of CARDS) out.add(c.id);
  for (const c of s.deck) out.delete(c);
  for (const side of SIDES) {
    for (const c of s.hands[side]) out.delete(c);
    const p = s.played[side];
    if (p !== null) out.delete(p);
  }
  return [...out];
}

/** A log entry as a seat reads it: its own side's private text, else the public one. */
export function lineFor(e: LogEntry, seat: Side | null): string {
  return seat !== null && e.own?.side === seat ? e.own.text : e.pub;
}

/**
 * The view of `s` for `seat` (null = spectator). `handlers` defaults to the
 * engine's table; it is read only when the function runs, so the import cycle
 * with index.ts is harmless.
 */
export function viewFor(s: R3State, seat: Side | null, handlers: HandlerTable = HANDLERS): R3View {
  const reveal = battleReveal(s);

  // Counts per area and per pool: identical whichever block stands where.
  const areas: R3View['areas'] = {};
  const pools: R3View['pools'] = { York: { n: 0, down: 0 }, Lancaster: { n: 0, down: 0 } };
  const minors: R3View['minors'] = { York: [], Lancaster: [] };
  const dead: string[] = [];
  const off: string[] = [];
  const exileMercs: R3View['exileMercenaries'] = {};
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const loc = s.loc[b]!;
    const side = ownerOf(s, b);
    const down = s.down[b] ? 1 : 0;
    if (AREA[loc]) {
      if (!down && AREA[loc]!.homeMercenaries?.includes(BLOCKS[b]!.id)) {
        const e = (exileMercs[loc] ??= {});
        e[side] = (e[side] ?? 0) + 1;
      }
      const byArea = (areas[loc] ??= {});
      const c = (byArea[side] ??= { n: 0, down: 0, acted: 0 });
      c.n++;
      c.down += down;
      if (s.acted[b]) c.acted++;
    } else if (loc === 'pool') {
      pools[side].n++;
      pools[side].down += down;
    } else if (loc === 'minor') {
      const heirSide = BLOCKS[b]!.side;
      if (heirSide === 'York' || heirSide === 'Lancaster') minors[heirSide].push(BLOCKS[b]!.id);
    } else if (loc === 'dead') {
      dead.push(BLOCKS[b]!.id);
    } else if (loc === 'off') {
      off.push(BLOCKS[b]!.id);
    }
  }
  // Stable key order: areas in map order.
  const sortedAreas: R3View['areas'] = {};
  for (const id of Object.keys(AREA)) if (areas[id]) sortedAreas[id] = areas[id]!;

  const played = (side: Side): string | null => {
    const c = s.played[side];
    if (c === null) return null;
    return s.revealed || side === seat ? c : 'hidden';
  };

  const f = s.flow.length > 0 ? top(s) : null;
  const h = f ? handlers[f.s] : undefined;
  const extra = f && h?.prompt ? h.prompt(s, f, seat) : null;
  const prompt: R3View['prompt'] = {
    ...(extra && typeof extra === 'object' ? (extra as Record<string, unknown>) : {}),
    state: f ? f.s : 'none',
    side: f ? f.side : null,
    active: activeSides(s, handlers),
  };

  const view: R3View = {
    game: 'richard-iii',
    scenario: s.scenario,
    campaign: s.campaign,
    endCampaign: s.endCampaign,
    turn: s.turn,
    seat,
    king: s.king,
    pretender: other(s.king),
    crown: {
      York: s.crown.York === null ? null : BLOCKS[s.crown.York]!.id,
      Lancaster: s.crown.Lancaster === null ? null : BLOCKS[s.crown.Lancaster]!.id,
    },
    prisoner: s.prisoner === null ? null : BLOCKS[s.prisoner]!.id,
    heirsToEnter: { York: s.heirsToEnter.York, Lancaster: s.heirsToEnter.Lancaster },
    result: s.result ? { winner: s.result.winner, reason: s.result.reason } : null,
    cards: {
      revealed: s.revealed,
      p1: s.p1,
      handSize: { York: s.hands.York.length, Lancaster: s.hands.Lancaster.length },
      played: { York: played('York'), Lancaster: played('Lancaster') },
      mulligan: { York: s.mulligan.York, Lancaster: s.mulligan.Lancaster },
      treason: s.treason,
      discards: discards(s),
    },
    areas: sortedAreas,
    pools,
    exileMercenaries: Object.fromEntries(Object.keys(exileMercs).sort().map((a) => [a, exileMercs[a]!])),
    minors,
    dead,
    off,
    rebel: { loc: s.loc[REBEL]!, down: s.down[REBEL]! },
    borderUse: Object.fromEntries(Object.keys(s.borderUse).sort().map((k) => [k, s.borderUse[k]!])),
    attacks: attackView(s),
    battle: reveal
      ? {
          area: reveal.area,
          blocks: reveal.blocks.map((b) => ({
            id: BLOCKS[b]!.id,
            side: ownerOf(s, b),
            loc: s.loc[b]!,
            steps: s.steps[b]!,
          })),
        }
      : null,
    prompt,
    flow: flowView(s, seat),
    log: s.log.map((e) => lineFor(e, seat)),
    logFrom: s.logFrom,
  };

  if (seat !== null) {
    view.hand = [...s.hands[seat]];
    const where = whereaboutsView(s, seat);
    if (where) view.whereabouts = where;
    const reserves = new Set<number>();
    const pirates = new Set<number>();
    for (const a of Object.values(s.attacks)) {
      for (const b of a.reserves) reserves.add(b);
      for (const b of a.pirates) pirates.add(b);
    }
    const mine: OwnBlockView[] = [];
    for (let b = 0; b < NUM_BLOCKS; b++) {
      if (ownerOf(s, b) !== seat) continue;
      const v: OwnBlockView = {
        id: BLOCKS[b]!.id,
        loc: s.loc[b]!,
        steps: s.steps[b]!,
        down: s.down[b]!,
        acted: s.acted[b]!,
      };
      if (reserves.has(b)) v.reserve = true;
      if (pirates.has(b)) v.pirate = true;
      mine.push(v);
    }
    view.blocks = mine;
  }
  return view;
}
