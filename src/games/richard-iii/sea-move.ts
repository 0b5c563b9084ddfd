/**
 * Sea moves (5.3), the port-to-port bonus (5.31) and Piracy's sea attacks.
 *
 * A sea move is a block's whole move: from a coastal area (exile areas count as
 * coastal) across one sea zone it touches to another coastal area of that zone.
 * Landlocked areas (Hereford, Gloucester, South Yorks and the other inland areas)
 * touch no sea zone in map.json, so they can neither be left nor entered by sea.
 * 1 AP per block; never into the enemy's exile (2.7); only into Friendly or Vacant
 * areas, except under Piracy, which may also land in Enemy or Contested coastal
 * areas (the card; G-8). Blocks whose data says canSeaMove = false (Scots, Welsh,
 * Rebel, city levies) never sea-move; the Bombard may. Pinned blocks may
 * not sea-move (INTERPRETATIONS 8).
 *
 * Port-to-port (5.31, R-14): a paid sea move from a major port to a major port
 * opens one free follower for the same origin and destination (INTERPRETATIONS 12);
 * the next block making exactly that trip uses it, even with no AP left. Not with
 * Piracy (card text).
 *
 * A sea zone a pirate used to attack counts as a border for the Main Attack and the
 * three-border limit (G-8); it closes nothing to the defender (G-8 gives it no
 * other effect), so unpinned defenders may still leave by land or sea.
 */
import { AREA, BLOCK_INDEX, BLOCKS, SEAS, type Side } from './data.ts';
import { Acted, addLog, type R3State } from './state.ts';
import { areaRef, blockRef, msg, sideRef } from './msg.ts';
import type { Action } from './flow.ts';
import { AREA_IX, isOpenAt, occupancy, statusOf, type Occupancy } from './occupancy.ts';
import { allowsSea, phaseOf, type PhaseFrame, type SeaFrame } from './action-frames.ts';
import { areaName, battleEntryOK, canLeave, recordEntry } from './movement.ts';
import { endActionPhase } from './action-phase.ts';

const portKey = (from: string, to: string): string => `${from}|${to}`;

/** Is a free port-to-port follower waiting for this trip (5.31)? */
const hasFollower = (p: PhaseFrame, from: string, to: string): boolean =>
  p.ev !== 'piracy' && (p.ports[portKey(from, to)] ?? 0) > 0;

interface Coast { id: string; ix: number; exileOf: Side | null }

/** The coastal areas of each sea zone (map.json `coasts`), with their occupancy index. */
const COASTS: Readonly<Record<string, readonly Coast[]>> = Object.fromEntries(
  SEAS.map((z) => [z.id, (z.coasts ?? []).map((id): Coast => ({ id, ix: AREA_IX[id]!, exileOf: AREA[id]!.exileOf }))]),
);

/** Can a block of `side` land on coast c of `zone` from `from` now (AP or follower; Friendly/Vacant, or Piracy's attack)? */
function landingOK(s: R3State, o: Occupancy, p: PhaseFrame, side: Side, from: string, zone: string, c: Coast): boolean {
  if (c.id === from || (c.exileOf !== null && c.exileOf !== side)) return false;
  if (p.ap <= 0 && !hasFollower(p, from, c.id)) return false;
  if (isOpenAt(o, c.ix, side)) return true;
  return p.ev === 'piracy' && battleEntryOK(s, side, c.id, zone);
}

/** Where a block of `side` may land from `from` across `zone`, given the AP and followers left. */
export function seaLandings(s: R3State, o: Occupancy, p: PhaseFrame, side: Side, from: string, zone: string): string[] {
  const out: string[] = [];
  for (const c of COASTS[zone]!) if (landingOK(s, o, p, side, from, zone, c)) out.push(c.id);
  return out;
}

/** The sea zones block b may cross now (each with at least one landing); [] if it cannot sea-move. */
export function seaZoneOptions(s: R3State, o: Occupancy, p: PhaseFrame, side: Side, b: number, from: string): string[] {
  if (!allowsSea(p) || !BLOCKS[b]!.canSeaMove) return [];
  const seas = AREA[from]!.seas;
  if (seas.length === 0 || !canLeave(s, o, from, side)) return [];
  const out: string[] = [];
  for (const z of seas) {
    for (const c of COASTS[z]!) {
      if (landingOK(s, o, p, side, from, z, c)) {
        out.push(z);
        break;
      }
    }
  }
  return out;
}

/** May a sea-capable block of `side` in `from` sea-move now (not pinned, some landing open)? */
export function canSeaMoveFrom(s: R3State, o: Occupancy, p: PhaseFrame, side: Side, from: string): boolean {
  if (!allowsSea(p)) return false;
  const seas = AREA[from]!.seas;
  if (seas.length === 0 || !canLeave(s, o, from, side)) return false;
  for (const z of seas) for (const c of COASTS[z]!) if (landingOK(s, o, p, side, from, z, c)) return true;
  return false;
}

/* --------------------------------------------------- sea_move_to state */

export function seaMoveToActions(s: R3State, f: SeaFrame, side: Side): Action[] {
  const p = phaseOf(s)!;
  const out: Action[] = [];
  for (const a of seaLandings(s, occupancy(s), p, side, f.from, f.zone)) out.push({ type: 'land', area: a });
  out.push({ type: 'cancel' }, { type: 'end' });
  return out;
}

export function seaMoveToApply(s: R3State, f: SeaFrame, side: Side, a: Action): void {
  if (a.type === 'cancel') {
    s.flow.pop();
    return;
  }
  if (a.type === 'end') {
    endActionPhase(s, side);
    return;
  }
  if (a.type !== 'land') throw new Error(`sea_move_to: unexpected action ${a.type}`);
  const to = a['area'] as string;
  const p = phaseOf(s)!;
  const b = BLOCK_INDEX[f.block]!;
  const key = portKey(f.from, to);
  let free = false;
  if (hasFollower(p, f.from, to)) {
    p.ports[key]!--;
    free = true;
  } else {
    p.ap--;
    if (p.ev !== 'piracy' && AREA[f.from]!.majorPort && AREA[to]!.majorPort) p.ports[key] = (p.ports[key] ?? 0) + 1;
  }
  const st = statusOf(occupancy(s), to, side);
  s.loc[b] = to;
  s.acted[b] = Acted.SeaMoved;
  const attack = st === 'enemy' || st === 'contested';
  if (attack) recordEntry(s, side, to, f.zone, b, true);
  s.flow.pop();
  const tail = `from ${areaName(f.from)} to ${areaName(to)} across the ${areaName(f.zone)}` +
    `${free ? ' (port-to-port, no AP)' : ''}${attack ? ' (battle)' : ''}.`;
  const params = { side: sideRef(side), from: areaRef(f.from), to: areaRef(to), zone: areaRef(f.zone), free: free ? 'yes' : 'no', battle: attack ? 'yes' : 'no' };
  addLog(s, `${side} sea-moves a block ${tail}`, msg('log.seaMove', params), {
    side, text: `${side} sea-moves ${BLOCKS[b]!.name} ${tail}`, m: msg('log.seaMoveOwn', { ...params, block: blockRef(b) }),
  });
}
