/**
 * Invented Black & White data for the tests (every number made up), and
 * helpers that build positions and pick seeds giving chosen dice.
 */
import { nextUint32, randomInt, seedRng, type RngState } from '../../../src/engine/rng.ts';
import type { Army, BlackAndWhiteData, KindCard, KindId, ScenarioData } from '../../../src/games/black-and-white/data-format.ts';
import { KINDS } from '../../../src/games/black-and-white/data-format.ts';
import { createBlackAndWhite } from '../../../src/games/black-and-white/index.ts';
import { setupState } from '../../../src/games/black-and-white/setup.ts';
import type { BWState, Unit } from '../../../src/games/black-and-white/state.ts';

type Numbers = Omit<KindCard, 'id' | 'army' | 'type'>;
// discipline, melee, ranged, defence, cost, strength, blocks
const n = (discipline: number, melee: number | null, ranged: number | null, defence: number, cost: number, strength: number, blocks: number): Numbers => ({
  discipline, melee, ranged, defence, cost, strength, blocks,
});
const NUMBERS: Record<KindId, Numbers> = {
  'regular-infantry': n(7, 2, null, 3, 2, 3, 4),
  'line-infantry': n(7, 2, 2, 3, 3, 3, 3),
  sharpshooters: n(8, 1, 3, 2, 3, 2, 2),
  sappers: n(7, 1, null, 3, 2, 2, 2),
  'regular-cavalry': n(7, 3, null, 3, 3, 3, 3),
  'light-cavalry': n(8, 2, 1, 2, 3, 2, 2),
  'heavy-cavalry': n(6, 4, null, 4, 4, 3, 2),
  'regular-artillery': n(6, null, 4, 2, 4, 2, 2),
  'special-artillery': n(6, 1, 3, 2, 5, 2, 1),
  'order-of-aquarius': n(7, 3, null, 3, 3, 3, 3),
  'brotherhood-of-the-sword': n(7, 3, null, 3, 3, 3, 3),
  'order-of-virgo': n(7, 1, 2, 3, 3, 2, 2),
  'lions-of-vesania': n(8, 2, null, 4, 3, 3, 2),
  'sirens-of-vesania': n(7, 3, null, 3, 3, 3, 3),
  'guardians-of-surculus': n(7, 2, 2, 3, 4, 2, 2),
  'iron-order': n(6, 4, null, 4, 4, 3, 2),
  'order-of-capricorn': n(6, null, 4, 2, 4, 2, 2),
  'order-of-the-scorpion': n(6, 1, 2, 2, 4, 2, 1),
};

const row = (r: number, from = 1, to = 10): string[] => Array.from({ length: to - from + 1 }, (_, i) => `${from + i},${r}`);

function scenario(id: string, extra: Partial<ScenarioData>): ScenarioData {
  return {
    id,
    number: 1,
    title: `Invented ${id}`,
    family: 'skirmish',
    terrain: {},
    firstRows: { Thargaton: row(1), Vesania: row(8) },
    ...extra,
  };
}

export function fixtureData(): BlackAndWhiteData {
  const kinds: KindCard[] = [];
  for (const army of ['Thargaton', 'Vesania'] as Army[]) {
    for (const [id, type] of Object.entries(KINDS[army])) kinds.push({ id: id as KindId, army, type, ...NUMBERS[id as KindId] });
  }
  return {
    format: 'herald.black-and-white.data/1',
    title: 'Test fixture (invented)',
    invented: true,
    board: { columns: 10, rows: 8, layout: 'flat-even-down' },
    aiming: { '2': 3, '3': 4, '4': 5 },
    kinds,
    commanders: {
      Thargaton: ['baron-maximilian', 'lord-alexandrus', 'vlad-kristofferson'],
      Vesania: ['inquisitor-dominic', 'cardinal-rafael', 'sister-anastasia'],
    },
    markers: { special: 9, trench: 2, wire: 2, fire: 2, smoke: 2 },
    scenarios: [
      scenario('skirmish', { terrain: { '3,4': 'forest', '4,4': 'forest', '6,5': 'hills', '7,5': 'swamp', '8,4': 'stream', '2,5': 'river', '5,5': 'bunker' } }),
      scenario('open', {}),
      scenario('training', { family: 'training', terrain: { '5,4': 'hills' } }),
      scenario('defence', { family: 'defence', attacker: 'Thargaton', turnLimit: 10, terrain: { '5,6': 'fort', '4,5': 'forest' } }),
      scenario('domination', { family: 'domination', fortsToWin: 2, terrain: { '3,4': 'fort', '5,4': 'fort', '8,5': 'fort' } }),
      scenario('bel', { family: 'behind-enemy-lines', attacker: 'Thargaton', arrows: ['1,8', '2,8', '3,8'], terrain: { '5,4': 'mountains' } }),
    ],
  };
}

export const DATA = fixtureData();
export const game = createBlackAndWhite(DATA);

export interface Placing {
  army: Army;
  kind: KindId;
  hex: string;
  strength?: number;
  id?: string;
  revealed?: boolean;
}

/** A Thargaton unit of `kind` on `hex` for position() (`more`: its strength, id, revealed). */
export const T = (kind: KindId, hex: string, more: Partial<Omit<Placing, 'army' | 'kind' | 'hex'>> = {}): Placing => ({ army: 'Thargaton', kind, hex, ...more });
/** A Vesanian unit of `kind` on `hex` for position(). */
export const V = (kind: KindId, hex: string, more: Partial<Omit<Placing, 'army' | 'kind' | 'hex'>> = {}): Placing => ({ army: 'Vesania', kind, hex, ...more });

/**
 * A game in play with exactly these units, `player` to act with its full
 * markers. These positions are small (a few units, far from any objective),
 * so by default they play on where no army can win any more (noWinPossible
 * 'play-on'); victory.test.ts gives 'draw' where it tests that rule.
 */
export function position(scenarioId: string, units: Placing[], player: Army = 'Thargaton', options: Record<string, unknown> = {}, features: Record<string, ('trench' | 'wire' | 'fire' | 'smoke')[]> = {}): BWState {
  const s = setupState(DATA, scenarioId, 'fixture', { noWinPossible: 'play-on', ...options });
  const count: Record<Army, number> = { Thargaton: 0, Vesania: 0 };
  s.units = units.map((p): Unit => {
    const card = DATA.kinds.find((k) => k.id === p.kind)!;
    return {
      id: p.id ?? `${p.army[0]}${String(++count[p.army]).padStart(2, '0')}`,
      army: p.army,
      kind: p.kind,
      type: card.type,
      hex: p.hex,
      strength: p.strength ?? card.strength,
      revealed: p.revealed ?? false,
    };
  });
  s.features = features;
  s.phase = 'play';
  s.player = player;
  s.turn = 1;
  s.markersLeft = s.markers[player];
  return s;
}

/** Sets the state's RNG so that the next d6 rolls are `dice` (searching seeds). */
export function withDice(s: BWState, dice: number[]): BWState {
  for (let i = 0; i < 2_000_000; i++) {
    const r: RngState = seedRng(`dice${i}`);
    const probe: RngState = [...r];
    if (dice.every((d) => randomInt(probe, 6) + 1 === d)) return { ...s, rng: r };
  }
  throw new Error(`no seed gives ${dice.join(',')}`);
}

export { nextUint32 };

/** Applies a list of [role, action] in turn. */
export function play(s: BWState, ...steps: [Army, object][]): BWState {
  for (const [role, a] of steps) s = game.apply(s, role, a as never);
  return s;
}

/** The player to act activates these units (§8). */
export const activated = (s: BWState, ...units: string[]): BWState => play(s, [s.player!, { type: 'activate', units }]);

export const unit = (s: BWState, id: string): Unit => s.units.find((u) => u.id === id)!;
