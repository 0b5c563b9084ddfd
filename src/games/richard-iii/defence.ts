/**
 * Defensive bonuses (2.2–2.6, 3.21–3.25, 6.4): +1 firepower, for the Defender
 * only, never for an attacker; the current roles count (after a round-1 role
 * swap the new defender gets them; a defector gets them on his new side).
 *
 * - noble on one of his own shields, church on its cathedral, city levy in its
 *   city: hasShieldIn (homes.ts), which also covers the conditional shields
 *   (dead Nevilles, a defected Clarence/Exeter's fixed homes);
 * - the Welsh mercenary in any Welsh area;
 * - heirs: each symbol's bonus goes to the most senior heir eligible for
 *   it among the side's heirs in the battle (not Reserves, INTERPRETATIONS 27):
 *   the area's royal shield (an area holds at most one royal shield symbol; who
 *   may use it is hasShieldIn's answer — Exeter's own shield is his alone while he
 *   lives), and the crown, for Royal heirs (the King's side) only (2.3). The
 *   senior Royal heir on his own shield and a crown thus fires at +2.
 */
import { AREA, BLOCKS } from './data.ts';
import { hasShieldIn } from './homes.ts';
import { mostSeniorAmong } from './heirs.ts';
import { activeBlocks, baseFirepower, defenderOf, type BattleFrame } from './battle-state.ts';
import { ownerOf, type R3State } from './state.ts';

export function defenceBonus(s: R3State, bf: BattleFrame, b: number): number {
  const side = ownerOf(s, b);
  if (side !== defenderOf(bf)) return 0;
  const area = bf.area;
  const d = BLOCKS[b]!;
  switch (d.type) {
    case 'noble':
    case 'church':
    case 'levy':
      return hasShieldIn(s, b, area) ? 1 : 0;
    case 'mercenary':
      return d.id === 'welsh-mercenary' && AREA[area]!.wales ? 1 : 0;
    case 'heir': {
      const heirs = activeBlocks(s, bf, side).filter((h) => BLOCKS[h]!.type === 'heir');
      if (!heirs.includes(b)) return 0;
      let n = 0;
      if (hasShieldIn(s, b, area) && mostSeniorAmong(heirs.filter((h) => hasShieldIn(s, h, area)), side) === b) n++;
      if (AREA[area]!.crown && side === s.king && mostSeniorAmong(heirs, side) === b) n++;
      return n;
    }
    default:
      return 0;
  }
}

/** Firepower of b now: printed number plus its defensive bonus (6.4). */
export function firepowerOf(s: R3State, bf: BattleFrame, b: number): number {
  return baseFirepower(b) + defenceBonus(s, bf, b);
}
