/**
 * The published game's facts (map, blocks, scenarios, cards) loaded from the
 * JSON copies in ./data, plus indexes built once at module load so that the
 * rules never scan lists on a hot path.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const mapJson = require('./data/map.json');
const blocksJson = require('./data/blocks.json');
const scenariosJson = require('./data/scenarios.json');
const cardsJson = require('./data/cards.json');

export type Side = 'York' | 'Lancaster';
export const SIDES: readonly Side[] = ['York', 'Lancaster'];
export const other = (s: Side): Side => (s === 'York' ? 'Lancaster' : 'York');

export type BorderType = 'yellow' | 'blue' | 'red';
export type BlockType = 'heir' | 'noble' | 'church' | 'levy' | 'bombard' | 'mercenary' | 'rebel';

export interface AreaData {
  id: string;
  name: string;
  kind: 'land' | 'exile' | 'sea';
  crown: boolean;
  city: string | null;
  cathedral: string | null;
  shields: string[];
  wales: boolean;
  majorPort: boolean;
  seas: string[];
  exileOf: Side | null;
  coastal?: boolean;
  landNeighbours?: string[];
  seaAccessOnly?: boolean;
  cityLevyOf?: Side | null;
  supplyLimit?: number | null;
  exileLimitNonMercenary?: number;
  homeMercenaries?: string[];
  coasts?: string[];
  majorPortsOnThisSea?: string[];
  layout: { x: number; y: number };
}

export interface BlockData {
  id: string;
  name: string;
  fullName: string;
  side: Side | 'Rebel';
  type: BlockType;
  maxSteps: number;
  combat: string;
  initiative: 'A' | 'B' | 'C' | 'D';
  firepower: number;
  loyalty: number | 'rose' | null | string;
  heirRank: number | null;
  shieldNames: string[];
  home: { kind: string; areas: string[] } | null;
  enemyVersionId: string | null;
  eliminatedTo: string;
  canSeaMove: boolean;
  disbandsInPoliticalTurn: boolean;
  conditionalShieldNames: { shield: string; usableWhen: string }[];
  notes: string[];
}

export interface ScenarioData {
  id: string;
  name: string;
  year: number;
  startCampaign: number;
  endCampaign: number;
  king: string;
  pretender: string;
  kingSide: Side;
  pretenderSide: Side;
  initialHeirDeathsPendingMinorEntry: Record<Side, number>;
  victory: string;
  specialRules: string[];
  locations: Record<string, string>;
  initialFlags?: { prisoner?: string[] };
}

export interface CardData {
  id: string;
  kind: 'event' | 'action';
  event?: 'force-march' | 'muster' | 'piracy' | 'plague' | 'surprise' | 'treason';
  name?: string;
  ap: number;
}

export const AREAS: readonly AreaData[] = mapJson.areas;
export const AREA: Readonly<Record<string, AreaData>> = Object.fromEntries(AREAS.map((a) => [a.id, a]));
export const LAND_AND_EXILE: readonly AreaData[] = AREAS.filter((a) => a.kind !== 'sea');
export const SEAS: readonly AreaData[] = AREAS.filter((a) => a.kind === 'sea');

/** Border type between two land areas, keyed "a|b" in both orders. */
export const BORDER: Readonly<Record<string, BorderType>> = (() => {
  const out: Record<string, BorderType> = {};
  for (const b of mapJson.borders as { a: string; b: string; type: BorderType }[]) {
    out[`${b.a}|${b.b}`] = b.type;
    out[`${b.b}|${b.a}`] = b.type;
  }
  return out;
})();
export const BORDER_LIMIT: Readonly<Record<BorderType, number>> = mapJson.conventions.borderLimits;

/** A canonical id for an unordered border: the two area ids sorted, joined by "|". */
export const borderId = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** Land neighbours of each area (sea zones excluded). */
export const NEIGHBOURS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  LAND_AND_EXILE.map((a) => [a.id, a.landNeighbours ?? []]),
);

export const BLOCKS: readonly BlockData[] = blocksJson.blocks;
export const BLOCK: Readonly<Record<string, BlockData>> = Object.fromEntries(BLOCKS.map((b) => [b.id, b]));
/** Blocks are stored in state as arrays indexed by their position in blocks.json. */
export const BLOCK_IDS: readonly string[] = BLOCKS.map((b) => b.id);
export const BLOCK_INDEX: Readonly<Record<string, number>> = Object.fromEntries(BLOCK_IDS.map((id, i) => [id, i]));
export const NUM_BLOCKS = BLOCKS.length;

export const SCENARIOS: readonly ScenarioData[] = scenariosJson.scenarios;
export const SCENARIO: Readonly<Record<string, ScenarioData>> = Object.fromEntries(SCENARIOS.map((s) => [s.id, s]));

export const CARDS: readonly CardData[] = cardsJson.deck;
export const CARD: Readonly<Record<string, CardData>> = Object.fromEntries(CARDS.map((c) => [c.id, c]));
export const HAND_SIZE: number = cardsJson.handSize;
export const REDEAL_THRESHOLD_AP: number = cardsJson.redealThresholdAp;
export const TURNS_PER_CAMPAIGN = 7;

/** The published facts as clients may read them (GameModule.data): the data files as they are. */
export const PUBLIC_DATA: Readonly<Record<string, unknown>> = { map: mapJson, blocks: blocksJson, cards: cardsJson, scenarios: scenariosJson };
