/**
 * Orders at the timing points of combat (§16, §18.2), each opened as a
 * window only when an order is on offer there: after an attack is declared
 * (Motivation, For the Queen! A45, Take Aim), after its roll (Finish Them,
 * Vlad's re-roll of a critical failure, Anastasia's re-roll of a failed
 * ranged attack A48; the same after artillery fire's damage roll), when the
 * enemy goes into a counterattack (Dodge A40, Defence), when its
 * counterattack would eliminate the unit (Until Death A46), before the
 * defender's counterattack choice or after a melee attack that settled
 * without one, or with A44 'after-roll' right after its roll (Withdrawal),
 * after an enemy retreats from the unit's melee
 * (Pursuit A43), and after an aiming roll misses (Alexandrus's re-roll).
 */
import { rollD6 } from '../../engine/rng.ts';
import type { Army } from './data-format.ts';
import type { Action } from './flow.ts';
import { canEnterTerrain, gridOf, hasFeature, inEnemyZoc, roomFor } from './board.ts';
import { commandTest } from './command-test.ts';
import { attackOutcome, attackResult, canCounter, defenceValue, fortified, isCriticalFailure, isCriticalSuccess, rangedValue, resolveAttack, resolveCounter, roll2d6, rollAttack, succeeds, type CounterMods } from './combat.ts';
import { reveal } from './reveal.ts';
import { aimResult, aimRolled, artilleryDamage, damageEach } from './artillery.ts';
import { enterHex } from './movement.ts';
import { armyRef, logLine, msg, sub } from './msg.ts';
import { unitById, type BWState, type PendingDecision, type Unit } from './state.ts';
import { loseSteps } from './victory.ts';
import { afterResolution, meleeTargets } from './activation.ts';
import { retreatHexes } from './retreat.ts';
import { commanderOf, issue, mayIssue } from './orders.ts';
import type { AttackSpec, OrderId, OrderWindow, Roll } from './orders-state.ts';

const order = (o: OrderId): Action => ({ type: 'order', order: o });
const live = (s: BWState, id: string): Unit | null => {
  const u = s.units.find((x) => x.id === id);
  return u && u.hex !== null ? u : null;
};

function open(s: BWState, w: OrderWindow): boolean {
  if (offers(s, w).length === 0) return false;
  s.orders.window = w;
  return true;
}

/** Where the attacker could withdraw to (A44: A23's rules, measured from the defender). */
const withdrawalHexes = (s: BWState, attacker: Unit, defender: Unit): string[] => retreatHexes(s, attacker, { cause: 'melee', fromHex: defender.hex! });

/**
 * Dodge (Baron: his cavalry, A40; Rafael: his infantry): before the
 * counterattack's roll, or with the Baron and a40BaronDodge 'after-roll'
 * once it has hit, as his card's garbled wording may also be read.
 */
function mayDodge(s: BWState, army: Army, mine: Unit, when: 'before-roll' | 'after-roll'): boolean {
  if (!mayIssue(s, army, 'dodge')) return false;
  const baron = commanderOf(s, army) === 'baron-maximilian';
  if (mine.type !== (baron ? 'cavalry' : 'infantry')) return false;
  return (baron ? s.options.a40BaronDodge : 'before-roll') === when;
}

/**
 * A46 'any-adjacent': whom Until Death's melee attack may hit: the
 * counterattacking unit, and any other enemy the unit could attack in melee
 * (§16.2, infantry shielding its artillery, §16.8.2; smoke, A33).
 */
function untilDeathTargets(s: BWState, mine: Unit, counterattacker: Unit): Unit[] {
  const out = canCounter(s, mine, counterattacker) ? [counterattacker] : [];
  if (mine.hex !== null && !hasFeature(s, mine.hex, 'smoke')) for (const t of meleeTargets(s, mine)) if (t.id !== counterattacker.id) out.push(t);
  return out;
}

/** The orders on offer in a window. */
function offers(s: BWState, w: OrderWindow): Action[] {
  const army = s.player;
  if (!army || !commanderOf(s, army)) return [];
  const may = (o: OrderId): boolean => mayIssue(s, army, o);
  // A44: Withdrawal after the defender's retreat or test (before any counterattack), or with 'after-roll' right after the roll and loss.
  const withdrawalAfterRoll = s.options.a44Withdrawal === 'after-roll' && may('withdrawal');
  const withdrawal = s.options.a44Withdrawal !== 'after-roll' && may('withdrawal');
  const out: Action[] = [];
  switch (w.at) {
    case 'declared': {
      const a = unitById(s, w.attack.attacker);
      const t = unitById(s, w.attack.target);
      if (a.army !== army) return [];
      if (w.attack.kind === 'melee' && may('motivation')) out.push(order('motivation'));
      if (w.attack.kind === 'ranged' && may('take-aim')) out.push(order('take-aim'));
      if (may('for-the-queen') && gridOf(s).distance(a.hex!, t.hex!) === 1) out.push(order('for-the-queen'));
      break;
    }
    case 'rolled': {
      const a = unitById(s, w.attack.attacker);
      if (a.army !== army) return [];
      const { hit, crit } = attackOutcome(s, w.attack, w.roll);
      if (crit === 'success' && may('finish-them')) out.push(order('finish-them'));
      if (crit === 'failure' && may('reroll')) out.push(order('reroll'));
      const artillery = a.type === 'artillery' && s.options.a48ReRoll === 'not-artillery';
      if (w.attack.kind === 'ranged' && !hit && !artillery && may('ranged-reroll')) out.push(order('ranged-reroll'));
      break;
    }
    case 'counter-declared': {
      const mine = unitById(s, w.attacker);
      if (mine.army !== army) return [];
      if (mayDodge(s, army, mine, 'before-roll')) out.push(order('dodge'));
      if (may('defence')) out.push(order('defence'));
      break;
    }
    case 'counter-hit': {
      const mine = unitById(s, w.attacker);
      const enemy = unitById(s, w.defender);
      if (mine.army !== army) return [];
      if (mayDodge(s, army, mine, 'after-roll')) out.push(order('dodge'));
      if (mine.strength <= 1 && may('until-death')) {
        // A46 'any-adjacent': the card's "one more melee attack" names no target, so any enemy the unit could attack in melee.
        if (s.options.a46Target === 'any-adjacent') {
          for (const t of untilDeathTargets(s, mine, enemy)) out.push({ type: 'order', order: 'until-death', unit: mine.id, target: t.id });
        } else if (canCounter(s, mine, enemy)) out.push(order('until-death'));
      }
      break;
    }
    case 'before-counter': {
      const mine = live(s, w.attacker);
      const enemy = live(s, w.defender);
      if (mine && enemy && mine.army === army && withdrawal && withdrawalHexes(s, mine, enemy).length > 0) out.push(order('withdrawal'));
      break;
    }
    case 'retreated': {
      const mine = live(s, w.unit);
      const enemy = live(s, w.target);
      if (!mine || !enemy || mine.army !== army || !may('pursuit')) break;
      if (canEnterTerrain(s, mine, w.vacated) && roomFor(s, w.vacated, [mine])) out.push(order('pursuit'));
      break;
    }
    case 'damage-rolled': {
      const u = unitById(s, w.unit);
      if (u.army !== army) return [];
      const hits = s.units.filter((x) => x.hex === w.hex && x.army !== army && (w.target === undefined || x.id === w.target)).filter((t) => succeeds(w.roll, rangedValue(s, u), defenceValue(s, t, u, 'artillery')));
      if (isCriticalSuccess(w.roll) && may('finish-them')) out.push(order('finish-them'));
      if (isCriticalFailure(w.roll) && may('reroll')) out.push(order('reroll'));
      if (hits.length === 0 && s.options.a48ReRoll === 'any' && may('ranged-reroll')) out.push(order('ranged-reroll'));
      break;
    }
    case 'melee-settled':
    case 'melee-resolved': {
      const mine = live(s, w.attacker);
      const enemy = live(s, w.defender);
      const now = w.at === 'melee-resolved' ? withdrawalAfterRoll : withdrawal;
      if (mine && enemy && mine.army === army && now && withdrawalHexes(s, mine, enemy).length > 0) out.push(order('withdrawal'));
      break;
    }
    case 'aim-missed':
      if (unitById(s, w.unit).army === army && may('aiming-reroll')) out.push(order('aiming-reroll'));
      break;
  }
  return out;
}

/** The window's orders (the step adds going on without one). */
export function windowOrders(s: BWState): Action[] {
  return s.orders.window ? offers(s, s.orders.window) : [];
}

// --- Hooks the combat code calls; each returns whether a window opened (the flow waits for it) ---

/** §16.2 step 1: an attack declared. Counts Battle Frenzy's melee attacks (A31). */
export function attackDeclared(s: BWState, spec: AttackSpec): boolean {
  spec.declared = true;
  const act = s.act;
  if (!act || !commanderOf(s, s.player!)) return false;
  if (spec.kind === 'melee' && act.units.includes(spec.attacker)) {
    act.orders = { ...act.orders, melees: (act.orders?.melees ?? 0) + 1, melee: { attacker: spec.attacker, defender: spec.target } };
  }
  return open(s, { at: 'declared', attack: spec });
}

export function attackRolled(s: BWState, spec: AttackSpec, roll: Roll): boolean {
  return !!s.act && open(s, { at: 'rolled', attack: spec, roll });
}

/** A counterattack decision waits (pending[0]): Withdrawal may come first (and not again once it is over). */
export function beforeCounter(s: BWState): void {
  const p = s.pending[0];
  if (p?.step !== 'counter' || !s.act) return;
  if (s.act.orders?.melee) s.act.orders.melee = null;
  open(s, { at: 'before-counter', defender: p.unit, attacker: p.from });
}

/**
 * A44 'after-roll': the unit's melee attack resolved by its roll and the
 * defender's loss, before the defender's retreat or test: Withdrawal's
 * window (and not later: the attack is no longer tracked). Returns whether a
 * window opened.
 */
export function meleeResolved(s: BWState, spec: AttackSpec): boolean {
  const m = s.act?.orders?.melee;
  if (s.options.a44Withdrawal !== 'after-roll' || !m || m.attacker !== spec.attacker || m.defender !== spec.target) return false;
  s.act!.orders!.melee = null;
  return open(s, { at: 'melee-resolved', attacker: m.attacker, defender: m.defender });
}

/**
 * Called when nothing waits in an activation: a melee attack that has
 * settled with no counterattack to come (a miss, a retreat, a fortified
 * defender) may still be followed by Withdrawal (A44). Returns whether a
 * window opened.
 */
export function meleeSettled(s: BWState): boolean {
  const m = s.act?.orders?.melee;
  if (!m) return false;
  s.act!.orders!.melee = null;
  return open(s, { at: 'melee-settled', attacker: m.attacker, defender: m.defender });
}

/** Artillery fire's damage roll, before its result (an attack roll like a ranged attack's, §16.6; A48). */
export function damageRolled(s: BWState, u: Unit, hex: string, r: Roll, target?: string, rest?: string[]): boolean {
  if (!s.act || !commanderOf(s, u.army)) return false;
  const targets = s.units.filter((x) => x.hex === hex && x.army !== u.army && (target === undefined || x.id === target));
  if (!open(s, { at: 'damage-rolled', unit: u.id, hex, roll: r, ...(target === undefined ? {} : { target, rest: rest ?? [] }) })) return false;
  // The defenders are revealed after the roll (§16.8.1), as without the window.
  for (const t of targets) reveal(s, t);
  return true;
}

export function counterDeclared(s: BWState, defender: Unit, attacker: Unit): boolean {
  return !!s.act && open(s, { at: 'counter-declared', defender: defender.id, attacker: attacker.id });
}

/** The counterattack hit: Until Death when the loss would eliminate the unit (A46); the Baron's Dodge with A40 'after-roll'. */
export function counterHit(s: BWState, defender: Unit, attacker: Unit): boolean {
  return !!s.act && open(s, { at: 'counter-hit', defender: defender.id, attacker: attacker.id });
}

export function afterMeleeRetreat(s: BWState, p: PendingDecision, vacated: string): void {
  if (s.act?.units.includes(p.from)) open(s, { at: 'retreated', unit: p.from, target: p.unit, vacated });
}

export function aimMissed(s: BWState, u: Unit, hex: string, ammo: 'normal' | 'incendiary' | 'smoke', die: number, markers: number, target?: string): boolean {
  return !!s.act && open(s, { at: 'aim-missed', unit: u.id, hex, ammo, die, markers, ...(target === undefined ? {} : { target }) });
}

// --- The window's actions ---

/** A45: instead of the attack, the unit is sacrificed and the adjacent enemy takes 1 damage; no counterattack. */
function forTheQueen(s: BWState, spec: AttackSpec): void {
  const a = unitById(s, spec.attacker);
  const t = unitById(s, spec.target);
  const fromHex = a.hex!;
  logLine(s, 'log.forTheQueen', { unit: a, target: t });
  const fort = fortified(s, t);
  loseSteps(s, t);
  if (t.hex !== null) {
    s.pending.push({ army: t.army, unit: t.id, step: 'after-hit', cause: 'melee', from: a.id, fromHex, fortified: fort, mayCounter: false });
  }
  loseSteps(s, a, a.strength, s.options.a45SacrificeVp === 'scores');
}

/** A hidden shooter's unit is named by its hex (§16.8.3). */
const shownOf = (s: BWState, spec: AttackSpec) => (spec.hidden ? sub(msg('unit.inHex', { hex: unitById(s, spec.attacker).hex! })) : undefined);

function logReroll(s: BWState, army: Army, r: Roll): void {
  logLine(s, 'log.rerolled', { army: armyRef(army), a: r.a, b: r.b });
}

export function applyWindow(s: BWState, army: Army, a: Action): void {
  const w = s.orders.window!;
  s.orders.window = null;
  const o = a.type === 'order' ? (a.order as OrderId) : null;
  switch (w.at) {
    case 'declared': {
      const spec = w.attack;
      const attacker = unitById(s, spec.attacker);
      if (o && issue(s, army, o, [attacker], shownOf(s, spec))) {
        if (o === 'for-the-queen') {
          forTheQueen(s, spec);
          break;
        }
        spec.bonus += 1; // Motivation, Take Aim
      }
      rollAttack(s, spec);
      break;
    }
    case 'rolled': {
      const spec = w.attack;
      let r = w.roll;
      if (o === 'finish-them') {
        if (issue(s, army, o, [unitById(s, spec.attacker)], shownOf(s, spec))) spec.damage = 2;
      } else if (o) {
        // Vlad's and Anastasia's special orders: the second roll must be accepted.
        issue(s, army, o, []);
        r = roll2d6(s);
        logReroll(s, army, r);
      }
      attackResult(s, spec, r);
      break;
    }
    case 'counter-declared': {
      const mine = unitById(s, w.attacker);
      const mods: CounterMods = {};
      if (o && issue(s, army, o, [mine])) {
        if (o === 'dodge') mods.noDamage = true;
        else mods.defence = 1;
      }
      resolveCounter(s, unitById(s, w.defender), mine, mods);
      break;
    }
    case 'counter-hit': {
      const mine = unitById(s, w.attacker);
      const enemy = unitById(s, w.defender);
      if (o === 'dodge') {
        if (issue(s, army, o, [mine])) logLine(s, 'log.dodged', { unit: mine });
        else loseSteps(s, mine);
        break;
      }
      if (o && issue(s, army, o, [mine])) {
        // A46: one melee attack on the counterattacking unit (with 'any-adjacent', on the enemy the order names), itself not counterattacked, then the unit goes.
        const target = a.type === 'order' && a.target ? unitById(s, a.target) : enemy;
        logLine(s, 'log.untilDeath', { unit: mine });
        resolveAttack(s, mine, target, 'melee', false, false, { noCounter: true, declared: true });
      }
      loseSteps(s, mine);
      break;
    }
    case 'before-counter': {
      const mine = unitById(s, w.attacker);
      const enemy = unitById(s, w.defender);
      if (o && issue(s, army, o, [mine])) {
        // A44: the counterattack decision goes; the unit retreats under A23 measured from the defender.
        s.pending = s.pending.filter((p) => !(p.step === 'counter' && p.unit === enemy.id));
        logLine(s, 'log.withdrawal', { unit: mine });
        s.pending.unshift({ army: mine.army, unit: mine.id, step: 'must-retreat', cause: 'melee', from: enemy.id, fromHex: enemy.hex!, fortified: false, mayCounter: false });
      }
      break;
    }
    case 'retreated': {
      const mine = unitById(s, w.unit);
      const enemy = unitById(s, w.target);
      if (o && issue(s, army, o, [mine])) {
        // A43: into the vacated hex without a ZOC test (with 'tests', one if in an enemy ZOC; a failure stays), then a melee attack on the retreated unit if it is adjacent.
        if (s.options.a43PursuitZoc === 'tests' && inEnemyZoc(s, mine.hex!, army) && !commandTest(s, [mine], 'zoc')) break;
        logLine(s, 'log.pursuit', { unit: mine, hex: w.vacated });
        // §12.2: infantry entering barbed wire may not attack after that move.
        const { wire } = enterHex(s, [mine], w.vacated);
        if (!wire && !s.result && mine.hex !== null && enemy.hex !== null && canCounter(s, mine, enemy) && !hasFeature(s, enemy.hex, 'smoke')) {
          resolveAttack(s, mine, enemy, 'melee', false, false, { declared: true });
        }
      }
      break;
    }
    case 'damage-rolled': {
      const u = unitById(s, w.unit);
      let r = w.roll;
      let damage = 1;
      if (o === 'finish-them') {
        if (issue(s, army, o, [u])) damage = 2;
      } else if (o) {
        issue(s, army, o, []);
        r = roll2d6(s);
        logReroll(s, army, r);
      }
      artilleryDamage(s, u, w.hex, r, damage, w.target);
      // A26 'per-unit': the other units' rolls follow.
      if (w.rest) damageEach(s, u, w.hex, w.rest);
      break;
    }
    case 'melee-resolved': {
      const mine = unitById(s, w.attacker);
      const enemy = unitById(s, w.defender);
      if (o && issue(s, army, o, [mine])) {
        // A44 'after-roll': the attacker retreats first (A23, measured from the defender); the defender then retreats or
        // tests as usual, but may not counterattack.
        s.pending = s.pending.filter((p) => !(p.step === 'counter' && p.unit === enemy.id));
        for (const p of s.pending) if (p.unit === enemy.id) p.mayCounter = false;
        logLine(s, 'log.withdrawal', { unit: mine });
        s.pending.unshift({ army: mine.army, unit: mine.id, step: 'must-retreat', cause: 'melee', from: enemy.id, fromHex: enemy.hex!, fortified: false, mayCounter: false });
      } else if (s.pending[0]?.step === 'counter') {
        // A22's counterattack after a miss waits behind the window.
        beforeCounter(s);
      }
      break;
    }
    case 'melee-settled': {
      const mine = unitById(s, w.attacker);
      const enemy = unitById(s, w.defender);
      if (o && issue(s, army, o, [mine])) {
        logLine(s, 'log.withdrawal', { unit: mine });
        s.pending.unshift({ army: mine.army, unit: mine.id, step: 'must-retreat', cause: 'melee', from: enemy.id, fromHex: enemy.hex!, fortified: false, mayCounter: false });
      }
      break;
    }
    case 'aim-missed': {
      const u = unitById(s, w.unit);
      if (o) {
        issue(s, army, o, []);
        aimRolled(s, u, w.hex, w.ammo, rollD6(s.rng), w.markers, false, w.target);
      } else {
        aimResult(s, u, w.hex, w.ammo, false, w.target);
      }
      break;
    }
  }
  afterResolution(s);
}
