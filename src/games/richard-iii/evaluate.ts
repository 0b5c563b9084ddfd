/**
 * A cheap estimate of a side's chance to win (GameModule.evaluate), for the
 * computer players' search: it scores playouts cut short by their depth limit
 * (src/ai/ismcts.ts), which is what makes a search of a ~170-decision game
 * affordable. Pure; reads a full state (a determinization in the search).
 *
 * The game is won by holding the throne after the last campaign's Usurpation
 * (8.2, 9.0): the Pretender takes it on a strict majority of nobles, church
 * blocks and heirs on the map (+1 for London), or at once by killing every
 * enemy heir. So the estimate is a logistic of a margin, in usurpation-count
 * units:
 *
 * - the usurpation-count margin (the King's side counts half a point for
 *   winning ties), London counted only for a side holding it with a block
 *   that is still there at the count (levies, bombards, mercenaries and the
 *   Rebel leave first, 8.1);
 * - pending battles (Contested areas): a battle is decided after both action
 *   phases, too far for a short search to see. Each is a gamble, won with a
 *   rough chance (the sides' expected hits per round, squared: Lanchester's
 *   square law); the loser loses the share of its counted blocks that the
 *   winner's expected hits over two rounds would destroy (all of them when
 *   those hits match its steps: losers that can retreat keep the rest), and
 *   the winner of a battle in London holds London;
 * - heirs at stake: in a pending or threatened battle an heir risks his count
 *   and a step towards the enemy's instant win (0.5 more), and a side's last
 *   living heir risks the game (6 points). Living heirs are no standing
 *   margin any more: at 0.5 each, four Lancaster heirs against York's one or
 *   two made a tied Pretender (a loss) its own favourite, and it stopped
 *   attacking;
 * - counted blocks in exile (0.15 each, fading like strength): they can still
 *   land for a point, so sparing a defected Clarence in France beats executing
 *   him (9.1), which the estimate was indifferent to;
 * - strength on land: 0.15 per step more than the enemy's, which is what wins
 *   the battles that change the count; it fades out over the last two turns
 *   (0.075 in the sixth, 0 in the last), when only the count and the battles
 *   pending still matter (levies and mercenaries disband before the count).
 * - threats (0.3 per point, fading like strength): a side's power next to
 *   an enemy stack holding counted blocks, valued as the battle it could start
 *   next turn (the gamble's chance times the share of the counted blocks its
 *   hits would take); the enemy's threats on our counted blocks count against
 *   us. Before it, a stack beside its target was worth no more than one far
 *   away, and a Pretender that must kill nobles (Kingmaker 1470: 1 to 11)
 *   landed its exiles, then left them idle or sent lone blocks at the King
 *   (ai-trace, Kingmaker game 103).
 *
 * Two things make it a win probability rather than a score:
 *
 * - **Time.** The logistic's slope grows as the game nears its end (0.4 per
 *   point over √(1 + game turns left)): the margin can still change a lot with
 *   seven turns to play and hardly at all in the last one, when one point is
 *   the game. The slope is kept low: far behind, a steep logistic sits on its
 *   convex tail, where averaging battle outcomes (below) prizes long-shot
 *   attacks over sure points (landing a noble); bench:ai, Lancaster in
 *   Kingmaker, 16 games each: 0.2 → 6/16, 0.4 → 13/16, 0.8 → 10/16,
 *   1.6 → 6/16, 3.0 → 1/16. In the last turn it is 1.5: nothing is left to
 *   play but this turn's moves and the battles they start (enumerated below),
 *   and the count after them is the result, a tie the King's, so the estimate
 *   should be close to a step at margin 0. At 0.4 a Pretender tied in the
 *   last turn (a loss) scored standing still 0.450 and an even fight for a
 *   point 0.452, too close for the search to tell apart; at 1.5, 0.32 and 0.39.
 * - **Battles as gambles.** The win probability is averaged over each pending
 *   battle's two outcomes (won: the enemy loses its stake; lost: we lose ours)
 *   instead of the logistic of the expected margin: a side behind then values
 *   a risky battle that might put it ahead, and a side ahead avoids one, as a
 *   player would.
 *
 * Weights are rough, chosen by the benchmark's win rates (scripts/bench-ai.ts),
 * not fitted.
 */
import { handAp } from './cards.ts';
import { AREA, BLOCK_INDEX, BLOCKS, CARD, NEIGHBOURS, NUM_BLOCKS, other, type Side } from './data.ts';
import { isHeirOf, livingHeirCount } from './heirs.ts';
import { usurpationCount } from './political-turn.ts';
import { ownerOf, type R3State } from './state.ts';

/** Logistic slope per margin point; divided by √(1 + turns left). Tuned by bench:ai (see above). */
const END_SCALE = 0.4;
/**
 * The slope in the last game turn: the count after it is the result (a tie is
 * the King's), and the battles still pending are enumerated below, so the
 * estimate is close to a step at margin 0.
 */
const LAST_TURN_SCALE = 1.5;
/** Turns over which the strength term fades out before the end (it is a proxy for battles to come). */
const FADE_TURNS = 2;
const TURNS_PER_CAMPAIGN = 7;
/** Battles whose outcomes are enumerated (2^n mixtures); further ones add their expectation. */
const MAX_GAMBLES = 4;
const TIE_BONUS = 0.5;
const STEP_WEIGHT = 0.15;
const HEIR_WEIGHT = 0.5;
/** Battle rounds whose expected hits a battle's loser suffers (three at most; losers often retreat sooner). */
const KILL_ROUNDS = 2;
const MIDDLESEX = 'middlesex';
const LAST_HEIR_WEIGHT = 6;
/**
 * Weight of the threat term (threat below): bench:ai, Lancaster in Kingmaker,
 * normal against random on the same seeds, see src/ai/README.md.
 */
const THREAT_WEIGHT = 0.3;
/**
 * A noble, church block or heir in exile can still land for a point, while
 * one executed (9.1) or lost to the exile limit (7.2) cannot: worth a little,
 * fading like strength (landing one is still worth 1 − 0.15 points). Without
 * it a Pretender with Clarence in France was indifferent between sparing and
 * executing him, and executed him in France in 3 of 13 traced Kingmaker games (one lost
 * 7–7 so: src/ai/README.md, fifth round).
 */
const EXILE_WEIGHT = 0.15;
/**
 * The AP a side has still to spend this campaign: the cards in its hand and
 * the card it has played this turn until its Action Phase begins, 0.2 points
 * per AP more than the enemy's. Choosing which card to play moves AP from the
 * hand to the table and changes nothing; the played card's AP leave the
 * estimate when its Action Phase begins, whatever is then done with them, so
 * no move is held back to keep AP. What it tells apart is hands: without it
 * the search could not tell keeping a 13-AP hand from demanding a redeal
 * (5.1), both leaving the board as it was, and kept one in a lost Kingmaker
 * game (562: 3, 1, 3, 0, 2, 2, 2; the average hand is 17.4 AP;
 * src/ai/README.md, seventh round).
 */
const CARD_AP_WEIGHT = 0.2;

function apToCome(s: R3State, side: Side): number {
  let ap = handAp(s.hands[side]);
  const played = s.played[side];
  // Its phase has not begun: the cards are not yet revealed, or the other
  // side is Player 1 and still acting (each phase's first frame is marked `phase`).
  if (played !== null && (s.p1 === null || (s.p1 !== side && s.flow.some((f) => f['phase'] === true && f.side === s.p1)))) ap += CARD[played]!.ap;
  return ap;
}

interface AreaTally { power: [number, number]; steps: [number, number]; count: [number, number] }

const COUNTED = new Set(['heir', 'noble', 'church']);

/**
 * A noble or heir being recruited or moved by sea is not on the map until the
 * next decision places it: count it already (+1 for its side, seen from me),
 * so the decision that picks it is worth what it brings.
 */
function pendingArrival(s: R3State, me: Side): number {
  const f = s.flow[s.flow.length - 1];
  if (!f || (f.s !== 'recruit_where' && f.s !== 'sea_move_to')) return 0;
  const b = BLOCK_INDEX[(f as { block?: string }).block ?? ''];
  if (b === undefined || !COUNTED.has(BLOCKS[b]!.type) || AREA[s.loc[b]!]?.kind === 'land') return 0;
  return ownerOf(s, b) === me ? 1 : -1;
}

/**
 * Side i's threat on the other side's counted blocks: for each area where only
 * the other side stands with nobles, church blocks or heirs, the power side i
 * has next to it (in the adjacent land areas free of the other side) taken as
 * an attack next turn, worth what a pending battle there would be worth to it
 * if won (the gamble's chance of winning times the share of the counted blocks,
 * heirs at their stake, that the attackers' expected hits would take). A side
 * that strikes through several borders is counted in full against each
 * target it borders: a rough upper bound, as is summing powers from several
 * areas (border limits are ignored).
 */
function threat(areas: Map<string, AreaTally>, i: 0 | 1): number {
  const j = 1 - i;
  let out = 0;
  for (const [loc, t] of areas) {
    if (t.count[j] === 0 || t.power[i] > 0) continue;
    let a = 0;
    for (const n of NEIGHBOURS[loc] ?? []) {
      const u = areas.get(n);
      if (u && u.power[j] === 0) a += u.power[i];
    }
    if (a === 0) continue;
    const p = (a * a) / (a * a + t.power[j] * t.power[j]);
    out += p * Math.min(1, (KILL_ROUNDS * a) / t.steps[j]) * t.count[j];
  }
  return out;
}

export function evaluate(s: R3State, role: string): number {
  if (role !== 'York' && role !== 'Lancaster') return 0.5;
  const me: Side = role;
  if (s.result) return s.result.winner === me ? 1 : s.result.winner === null ? 0.5 : 0;
  const opp = other(me);
  let margin = usurpationCount(s, me) - usurpationCount(s, opp) + (s.king === me ? TIE_BONUS : -TIE_BONUS);
  // Living heirs count only as stakes: what a block risks in a battle (pending
  // or threatened) is its count, and for an heir also his life (HEIR_WEIGHT);
  // a side's last heir is the game. Not as a standing margin: at 0.5 per heir,
  // a Pretender with four heirs against York's one or two (Edward IV killed)
  // took a tie on the count, which is a loss, for a lead of 1 to 1.5 points,
  // and left its AP unspent in turns 4-7 (fifth round).
  const heirs = [livingHeirCount(s, me), livingHeirCount(s, opp)];
  const heirStake = heirs.map((n) => 1 + (n <= 1 ? LAST_HEIR_WEIGHT : HEIR_WEIGHT));
  margin += pendingArrival(s, me) + CARD_AP_WEIGHT * (apToCome(s, me) - apToCome(s, opp));
  let steps = 0, exiles = 0;
  const areas = new Map<string, AreaTally>();
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const loc = s.loc[b]!;
    if (s.down[b]) continue;
    const kind = AREA[loc]?.kind;
    if (kind === 'exile' && COUNTED.has(BLOCKS[b]!.type)) exiles += ownerOf(s, b) === me ? 1 : -1;
    if (kind !== 'land') continue;
    const mine = ownerOf(s, b) === me;
    const n = s.steps[b]!;
    steps += mine ? n : -n;
    let t = areas.get(loc);
    if (!t) areas.set(loc, (t = { power: [0, 0], steps: [0, 0], count: [0, 0] }));
    const i = mine ? 0 : 1;
    const data = BLOCKS[b]!;
    t.power[i] += (n * data.firepower) / 6;
    t.steps[i] += n;
    if (isHeirOf(s, b, mine ? me : opp)) t.count[i] += heirStake[i]!;
    else if (COUNTED.has(data.type)) t.count[i]++;
  }
  // London counts at the usurpation only for a side still there after levies,
  // bombards, mercenaries and the Rebel leave it (8.1, before 8.2): held by
  // those alone, it is worth nothing (Lancaster lost a tied count so).
  const ldn = areas.get(MIDDLESEX);
  if (ldn && (ldn.power[0] === 0) !== (ldn.power[1] === 0)) {
    const holder = ldn.power[0] > 0 ? 0 : 1;
    if (ldn.count[holder] === 0) margin += holder === 0 ? -1 : 1;
  }
  // Game turns after this one (the Political Turn's usurpation ends the last).
  const left = Math.max(0, TURNS_PER_CAMPAIGN - s.turn) + TURNS_PER_CAMPAIGN * Math.max(0, s.endCampaign - s.campaign);
  // Threats: battles that may come next turn, so that gathering a stack beside
  // a target is worth something before the attack; faded like strength, and
  // nothing in the last turn (no turn is left to attack in).
  if (left > 0) margin += THREAT_WEIGHT * Math.min(1, left / FADE_TURNS) * (threat(areas, 0) - threat(areas, 1));
  const gambles: { p: number; win: number; lose: number }[] = [];
  for (const [loc, t] of areas) {
    if (t.power[0] === 0 || t.power[1] === 0) continue;
    const a = t.power[0] * t.power[0], d = t.power[1] * t.power[1];
    const p = a / (a + d);
    // The loser's counted blocks die in the proportion of its steps the
    // winner's expected hits over KILL_ROUNDS rounds would take (hits fall on
    // the strongest blocks first, so they spread); the winner holds London.
    const london = loc === MIDDLESEX ? 1 : 0;
    const win = Math.min(1, (KILL_ROUNDS * t.power[0]) / t.steps[1]) * t.count[1] + (t.count[0] > 0 ? london : 0);
    const lose = -Math.min(1, (KILL_ROUNDS * t.power[1]) / t.steps[0]) * t.count[0] - (t.count[1] > 0 ? london : 0);
    if (gambles.length < MAX_GAMBLES) gambles.push({ p, win, lose });
    else margin += p * win + (1 - p) * lose;
  }
  const scale = left === 0 ? LAST_TURN_SCALE : END_SCALE / Math.sqrt(1 + left);
  // Strength wins the battles that change the count, but levies, mercenaries
  // and the Rebel disband before it (8.1): in the last turns only the count and
  // the battles already pending matter. (Counted flat to the end, a Pretender
  // tied on the count with more levies took itself for the winner and ended its
  // last three action phases with AP unspent.)
  const base = margin + Math.min(1, left / FADE_TURNS) * (STEP_WEIGHT * steps + EXILE_WEIGHT * exiles);
  // Average the win probability over every combination of battle outcomes.
  let total = 0;
  for (let m = 0; m < 1 << gambles.length; m++) {
    let pr = 1, x = base;
    for (let i = 0; i < gambles.length; i++) {
      const g = gambles[i]!;
      if (m & (1 << i)) { pr *= g.p; x += g.win; } else { pr *= 1 - g.p; x += g.lose; }
    }
    total += pr / (1 + Math.exp(-scale * x));
  }
  return total;
}
