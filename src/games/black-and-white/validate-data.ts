/**
 * The check of a Black & White data file (data-format.ts; documented by
 * data.schema.json) before a server uses it. Pure: the caller reads the file
 * and parses the JSON.
 *
 * Two passes. The first checks the shape (what data.schema.json says: fields,
 * types, ranges, names); the second, run only on a file of the right shape,
 * checks what a schema cannot say: the rules' lists of kinds and commanders,
 * hex names against the board, each scenario family's fields (RULES.md §6,
 * A50–A52, A56) and the counts of blocks and markers (§2). Every problem is
 * reported, with a JSON pointer to the value at fault, so that an owner typing
 * in a file fixes them all in one go.
 *
 * Hand-written rather than run by a schema validator: the rules code is pure
 * (no packages); test/games/black-and-white/validate-data.test.ts checks that
 * data.schema.json agrees with the first pass.
 */
import { ARMIES, BOARD_LAYOUTS, COMMANDERS, FEATURES, KINDS, TERRAINS } from './data-format.ts';
import type { Army, BlackAndWhiteData, Family, Feature, ScenarioData, Terrain } from './data-format.ts';
import { parseHexId } from './hex.ts';

export interface DataProblem {
  /** The file as the caller named it. */
  file: string;
  /** JSON pointer to the value at fault ("" for the whole file), e.g. /scenarios/3/firstRows/Vesania/2. */
  path: string;
  message: string;
}

export type DataValidation = { ok: true; data: BlackAndWhiteData } | { ok: false; problems: DataProblem[] };

export const DATA_FORMAT = 'herald.black-and-white.data/1';
export const FAMILIES: readonly Family[] = ['skirmish', 'defence', 'domination', 'behind-enemy-lines', 'training'];
/** The card numbers of each family (§6). */
export const FAMILY_NUMBERS: Readonly<Record<Family, readonly [number, number]>> = {
  skirmish: [1, 5],
  defence: [6, 10],
  domination: [11, 15],
  'behind-enemy-lines': [16, 20],
  training: [21, 22],
};
/** Blocks per army (§2). */
export const BLOCKS_PER_ARMY = 24;
/** Special markers each army takes when the scenario card gives no other number (§6, A57). */
export function familyMarkers(family: Family, army: Army, attacker: Army | undefined): number {
  return (family === 'defence' || family === 'behind-enemy-lines') && army === attacker ? 4 : 3;
}
/** Terrain no unit may stand on (§11): no deployment, no trench or wire there. */
const IMPASSABLE: readonly Terrain[] = ['river', 'mountains'];
/** Features built by Sappers in their own hex (§12.1, §12.2): only where infantry can stand. */
const BUILT: readonly Feature[] = ['trench', 'wire'];
const ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
/** One JSON-pointer step (RFC 6901 escapes). */
const at = (path: string, key: string | number): string => `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
const quote = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'nothing' : JSON.stringify(v) ?? String(v));
const list = (xs: readonly unknown[]): string => xs.map((x) => quote(x)).join(', ');
const ALL_KINDS: readonly string[] = ARMIES.flatMap((a) => Object.keys(KINDS[a]));

class Problems {
  readonly all: DataProblem[] = [];
  private readonly file: string;
  constructor(file: string) {
    this.file = file;
  }
  add(path: string, message: string): void {
    this.all.push({ file: this.file, path, message });
  }
}

// ─── Pass 1: shape ──────────────────────────────────────────────────────────

interface Field {
  required?: boolean;
  check: (v: unknown, path: string, p: Problems) => void;
}

function object(v: unknown, path: string, p: Problems, fields: Record<string, Field>, what: string): v is Json {
  if (!isObject(v)) {
    p.add(path, `must be an object (${what}), not ${describe(v)}`);
    return false;
  }
  for (const [name, f] of Object.entries(fields)) {
    if (Object.hasOwn(v, name)) f.check(v[name], at(path, name), p);
    else if (f.required) p.add(at(path, name), `is missing: ${what} needs "${name}"`);
  }
  for (const name of Object.keys(v)) {
    if (!Object.hasOwn(fields, name)) p.add(at(path, name), `is not a field of ${what} (its fields: ${Object.keys(fields).join(', ')})`);
  }
  return true;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `the text ${quote(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  return `${typeof v === 'object' ? 'an object' : `a ${typeof v}`}`;
}

const int = (min: number, max: number, nullable = false): Field['check'] => (v, path, p) => {
  if (nullable && v === null) return;
  if (!isInt(v) || v < min || v > max) p.add(path, `must be a whole number from ${min} to ${max}${nullable ? ' or null' : ''}, not ${describe(v)}`);
};
const text: Field['check'] = (v, path, p) => {
  if (typeof v !== 'string' || v.trim() === '') p.add(path, `must be a non-empty text, not ${describe(v)}`);
};
const oneOf = (values: readonly unknown[]): Field['check'] => (v, path, p) => {
  if (!values.includes(v)) p.add(path, `must be one of ${list(values)}, not ${describe(v)}`);
};
const hex: Field['check'] = (v, path, p) => {
  if (typeof v !== 'string' || parseHexId(v) === null) p.add(path, `must be a hex name "column,row" (e.g. "3,7"), not ${describe(v)}`);
};
const array = (item: Field['check'], minItems = 0): Field['check'] => (v, path, p) => {
  if (!Array.isArray(v)) return p.add(path, `must be a list, not ${describe(v)}`);
  if (v.length < minItems) p.add(path, `must hold at least ${minItems} item${minItems === 1 ? '' : 's'}`);
  v.forEach((x, i) => item(x, at(path, i), p));
};
/** An object keyed by hex names. */
const byHex = (value: Field['check']): Field['check'] => (v, path, p) => {
  if (!isObject(v)) return p.add(path, `must be an object keyed by hex names ("column,row"), not ${describe(v)}`);
  for (const [k, x] of Object.entries(v)) {
    if (parseHexId(k) === null) p.add(at(path, k), `is not a hex name: keys must be "column,row" (e.g. "3,7")`);
    value(x, at(path, k), p);
  }
};
const nested = (fields: Record<string, Field>, what: string): Field['check'] => (v, path, p) => void object(v, path, p, fields, what);

const ARMY_FIELDS = (check: Field['check'], required: boolean): Record<string, Field> => Object.fromEntries(ARMIES.map((a) => [a, { required, check }]));

const KIND_FIELDS: Record<string, Field> = {
  id: { required: true, check: oneOf(ALL_KINDS) },
  army: { required: true, check: oneOf(ARMIES) },
  type: { required: true, check: oneOf(['infantry', 'cavalry', 'artillery']) },
  discipline: { required: true, check: int(2, 12) },
  melee: { required: true, check: int(0, 20, true) },
  ranged: { required: true, check: int(0, 20, true) },
  defence: { required: true, check: int(0, 20) },
  cost: { required: true, check: int(1, 20) },
  value: { check: int(0, 100) },
  strength: { required: true, check: int(1, 4) },
  blocks: { required: true, check: int(1, BLOCKS_PER_ARMY) },
  defenceVsCavalry: { check: int(0, 10) },
};

const SCENARIO_FIELDS: Record<string, Field> = {
  id: {
    required: true,
    check: (v, path, p) => {
      if (typeof v !== 'string' || !ID.test(v)) p.add(path, `must be an id of lower-case letters, digits and hyphens (at most 40, e.g. "s01"), not ${describe(v)}`);
    },
  },
  number: { required: true, check: int(1, 22) },
  title: { required: true, check: text },
  family: { required: true, check: oneOf(FAMILIES) },
  terrain: { required: true, check: byHex(oneOf(TERRAINS)) },
  features: {
    check: byHex((v, path, p) => {
      array(oneOf(FEATURES), 1)(v, path, p);
      if (Array.isArray(v) && new Set(v).size !== v.length) p.add(path, 'names a feature twice');
    }),
  },
  firstRows: { required: true, check: nested(ARMY_FIELDS(array(hex, 1), true), 'the first rows, one list of hexes per army') },
  attacker: { check: oneOf(ARMIES) },
  turnLimit: { check: oneOf([10, 12]) },
  fortsToWin: { check: int(1, 100) },
  arrows: { check: array(hex, 1) },
  unitsToBreakThrough: { check: int(1, BLOCKS_PER_ARMY) },
  markers: { check: nested(ARMY_FIELDS(int(1, 9), false), 'special markers per army') },
  notes: { check: (v, path, p) => void (typeof v !== 'string' && p.add(path, `must be a text, not ${describe(v)}`)) },
};

const FILE_FIELDS: Record<string, Field> = {
  format: { required: true, check: oneOf([DATA_FORMAT]) },
  title: { required: true, check: text },
  invented: { required: true, check: (v, path, p) => void (typeof v !== 'boolean' && p.add(path, `must be true or false, not ${describe(v)}`)) },
  board: {
    required: true,
    check: nested(
      {
        columns: { required: true, check: int(1, 100) },
        rows: { required: true, check: int(1, 100) },
        layout: { required: true, check: oneOf(BOARD_LAYOUTS) },
        excluded: { check: array(hex) },
      },
      'the board',
    ),
  },
  aiming: { required: true, check: nested({ '2': { required: true, check: int(1, 6) }, '3': { required: true, check: int(1, 6) }, '4': { required: true, check: int(1, 6) } }, 'the aiming table: the least roll at distance 2, 3 and 4') },
  kinds: { required: true, check: array(nested(KIND_FIELDS, 'a unit card'), 1) },
  commanders: { required: true, check: nested(ARMY_FIELDS(array(oneOf(COMMANDERS)), true), "each army's commanders") },
  markers: {
    required: true,
    check: nested(
      {
        special: { required: true, check: int(0, 100) },
        trench: { required: true, check: int(0, 100) },
        wire: { required: true, check: int(0, 100) },
        fire: { required: true, check: int(0, 100) },
        smoke: { required: true, check: int(0, 100) },
      },
      'the marker counts',
    ),
  },
  budget: { check: int(1, 1000) },
  scenarios: { required: true, check: array(nested(SCENARIO_FIELDS, 'a scenario'), 1) },
};

// ─── Pass 2: what the rules require ─────────────────────────────────────────

function checkKinds(d: BlackAndWhiteData, p: Problems): void {
  const budget = d.budget ?? 20;
  for (const army of ARMIES) {
    const expected = KINDS[army] as Record<string, string>;
    const seen = new Map<string, number>();
    let blocks = 0;
    d.kinds.forEach((k, i) => {
      const path = at('/kinds', i);
      if (k.army !== army) return;
      if (!Object.hasOwn(expected, k.id)) {
        p.add(at(path, 'id'), `${quote(k.id)} is not a kind of ${army} (its kinds: ${Object.keys(expected).join(', ')})`);
        return;
      }
      if (seen.has(k.id)) p.add(at(path, 'id'), `${army}'s ${k.id} is listed twice (also at /kinds/${seen.get(k.id)})`);
      else seen.set(k.id, i);
      if (k.type !== expected[k.id]) p.add(at(path, 'type'), `${k.id} is ${expected[k.id]} in the rules (§4), not ${k.type}`);
      blocks += k.blocks;
      if (k.type !== 'artillery' && k.melee === null) p.add(at(path, 'melee'), `${k.id} is ${k.type}: it needs a Melee attack`);
      if (k.type === 'artillery' && k.ranged === null) p.add(at(path, 'ranged'), `${k.id} is artillery: it needs its artillery attack as "ranged"`);
      if (k.defenceVsCavalry !== undefined && k.id !== 'lions-of-vesania') p.add(at(path, 'defenceVsCavalry'), 'only the Lions of Vesania have a Defence bonus against cavalry');
      if (k.cost > budget) p.add(at(path, 'cost'), `${k.id} costs ${k.cost}, more than the whole budget of ${budget}: it could never be bought`);
    });
    const missing = Object.keys(expected).filter((id) => !seen.has(id));
    if (missing.length > 0) p.add('/kinds', `${army} lacks ${missing.length === 1 ? 'the kind' : 'the kinds'} ${missing.join(', ')}: each army has exactly these 9 cards (§4)`);
    if (blocks > BLOCKS_PER_ARMY) p.add('/kinds', `${army}'s kinds have ${blocks} blocks together; the army has only ${BLOCKS_PER_ARMY} (§2)`);
  }
}

function checkCommanders(d: BlackAndWhiteData, p: Problems): void {
  const where = new Map<string, string>();
  for (const army of ARMIES) {
    const cs = d.commanders[army];
    if (cs.length !== 3) p.add(at('/commanders', army), `${army} must have exactly 3 commanders (§4.4), not ${cs.length}`);
    cs.forEach((c, i) => {
      const path = at(at('/commanders', army), i);
      const before = where.get(c);
      if (before !== undefined) p.add(path, `${c} is already at ${before}: each commander belongs to one army, once`);
      else where.set(c, path);
    });
  }
  const unused = COMMANDERS.filter((c) => !where.has(c));
  if (unused.length > 0) p.add('/commanders', `${unused.join(', ')} ${unused.length === 1 ? 'is' : 'are'} in no army: the six commanders are split three and three`);
}

function checkScenario(d: BlackAndWhiteData, s: ScenarioData, path: string, p: Problems, onBoard: (h: string) => string | null): void {
  const hexAt = (h: string, hp: string): boolean => {
    const why = onBoard(h);
    if (why !== null) p.add(hp, why);
    return why === null;
  };
  const terrainOf = (h: string): Terrain => s.terrain[h] ?? 'open';

  const [lo, hi] = FAMILY_NUMBERS[s.family];
  if (s.number < lo || s.number > hi) p.add(at(path, 'number'), `${s.family} scenarios are numbered ${lo}–${hi} (§6), not ${s.number}`);

  for (const h of Object.keys(s.terrain)) hexAt(h, at(at(path, 'terrain'), h));
  for (const [h, fs] of Object.entries(s.features ?? {})) {
    const fp = at(at(path, 'features'), h);
    if (!hexAt(h, fp)) continue;
    const t = terrainOf(h);
    fs.forEach((f, i) => {
      if (BUILT.includes(f) && IMPASSABLE.includes(t)) p.add(at(fp, i), `a ${f} is built where infantry stands (§12), and no unit can stand on ${t} (${h})`);
    });
  }
  const printed = new Map<Feature, number>();
  for (const fs of Object.values(s.features ?? {})) for (const f of fs) printed.set(f, (printed.get(f) ?? 0) + 1);
  for (const [f, n] of printed) {
    if (n > d.markers[f]) p.add(at(path, 'features'), `${n} ${f} markers are printed, but the game has only ${d.markers[f]} (/markers/${f})`);
  }

  const rows = new Map<string, Army>();
  for (const army of ARMIES) {
    const rp = at(at(path, 'firstRows'), army);
    const seen = new Set<string>();
    s.firstRows[army].forEach((h, i) => {
      const hp = at(rp, i);
      if (!hexAt(h, hp)) return;
      if (seen.has(h)) return p.add(hp, `${h} is listed twice in ${army}'s first row`);
      seen.add(h);
      const other = rows.get(h);
      if (other !== undefined) return p.add(hp, `${h} is in both first rows (${other}'s and ${army}'s): they must be apart`);
      rows.set(h, army);
      const t = terrainOf(h);
      if (IMPASSABLE.includes(t)) p.add(hp, `${h} is ${t}: no unit can be deployed there`);
    });
  }

  const forts = Object.keys(s.terrain).filter((h) => s.terrain[h] === 'fort');
  const only = (field: keyof ScenarioData, families: string) => {
    if (s[field] !== undefined) p.add(at(path, field), `is only for ${families} scenarios, and this one is ${s.family}`);
  };
  const needs = (field: keyof ScenarioData, why: string): boolean => {
    if (s[field] === undefined) p.add(at(path, field), `is missing: a ${s.family} scenario needs ${why}`);
    return s[field] !== undefined;
  };
  if (s.family !== 'defence' && s.family !== 'behind-enemy-lines') only('attacker', 'defence and behind-enemy-lines');
  if (s.family !== 'defence') only('turnLimit', 'defence');
  if (s.family !== 'domination') only('fortsToWin', 'domination');
  if (s.family !== 'behind-enemy-lines') {
    only('arrows', 'behind-enemy-lines');
    only('unitsToBreakThrough', 'behind-enemy-lines');
  }
  switch (s.family) {
    case 'defence': {
      needs('attacker', 'the attacking army (A50)');
      needs('turnLimit', "the attacker's turn limit, 10 or 12 (D8, A50)");
      if (forts.length !== 1) p.add(at(path, 'terrain'), `a defence scenario has exactly one fort (§6), and this one has ${forts.length}`);
      const fort = forts[0];
      if (forts.length === 1 && s.attacker !== undefined && fort !== undefined && s.firstRows[s.attacker].includes(fort)) {
        p.add(at(path, 'terrain'), `the fort ${fort} is on the attacker's (${s.attacker}'s) first row: it would be taken at once`);
      }
      break;
    }
    case 'domination': {
      const toWin = s.fortsToWin ?? 2;
      if (forts.length < toWin) p.add(at(path, s.fortsToWin === undefined ? 'terrain' : 'fortsToWin'), `${toWin} forts win, and the map has only ${forts.length}`);
      break;
    }
    case 'behind-enemy-lines': {
      needs('attacker', 'the breaking-through army (§6)');
      if (needs('arrows', 'the arrow hexes (A51)') && s.arrows) {
        const defender = s.attacker === undefined ? undefined : ARMIES.find((a) => a !== s.attacker);
        const seen = new Set<string>();
        s.arrows.forEach((h, i) => {
          const hp = at(at(path, 'arrows'), i);
          if (!hexAt(h, hp)) return;
          if (seen.has(h)) return p.add(hp, `${h} is listed twice`);
          seen.add(h);
          if (defender !== undefined && s.firstRows[defender].includes(h)) p.add(hp, `${h} is on the defender's (${defender}'s) first row; the defender may not deploy on arrow hexes (§6)`);
          if (IMPASSABLE.includes(terrainOf(h))) p.add(hp, `${h} is ${terrainOf(h)}: no unit could reach it`);
        });
        const need = s.unitsToBreakThrough ?? 3;
        if (need > s.arrows.length * 3) p.add(at(path, 'unitsToBreakThrough'), `${need} units cannot stand on ${s.arrows.length} arrow hex${s.arrows.length === 1 ? '' : 'es'} at once (3 units a hex, §5.1)`);
      }
      break;
    }
    case 'skirmish':
    case 'training':
      break;
  }

  let specials = 0;
  for (const army of ARMIES) specials += s.markers?.[army] ?? familyMarkers(s.family, army, s.attacker);
  if (specials > d.markers.special) {
    p.add(s.markers ? at(path, 'markers') : path, `the armies take ${specials} special markers in this scenario, and the game has ${d.markers.special} (/markers/special)`);
  }
}

function checkFile(d: BlackAndWhiteData, p: Problems): void {
  const b = d.board;
  const inBoard = (h: string): boolean => {
    const c = parseHexId(h);
    return c !== null && c.column <= b.columns && c.row <= b.rows;
  };
  const excluded = new Set<string>();
  (b.excluded ?? []).forEach((h, i) => {
    if (!inBoard(h)) p.add(`/board/excluded/${i}`, `${h} is not on a ${b.columns}×${b.rows} board`);
    else if (excluded.has(h)) p.add(`/board/excluded/${i}`, `${h} is listed twice`);
    excluded.add(h);
  });
  const onBoard = (h: string): string | null => {
    if (!inBoard(h)) return `${h} is not on the board (${b.columns} columns × ${b.rows} rows, from "1,1")`;
    if (excluded.has(h)) return `${h} is an excluded half hex (/board/excluded)`;
    return null;
  };

  if (d.aiming['2'] > d.aiming['3'] || d.aiming['3'] > d.aiming['4']) {
    p.add('/aiming', `aiming must not get easier farther away (§16.6): the least rolls at 2, 3, 4 hexes are ${d.aiming['2']}, ${d.aiming['3']}, ${d.aiming['4']}`);
  }
  checkKinds(d, p);
  checkCommanders(d, p);

  const ids = new Map<string, number>();
  const numbers = new Map<number, number>();
  d.scenarios.forEach((s, i) => {
    const path = at('/scenarios', i);
    const sameId = ids.get(s.id);
    if (sameId !== undefined) p.add(at(path, 'id'), `${quote(s.id)} is also the id of /scenarios/${sameId}`);
    else ids.set(s.id, i);
    const sameNumber = numbers.get(s.number);
    if (sameNumber !== undefined) p.add(at(path, 'number'), `${s.number} is also the number of /scenarios/${sameNumber}`);
    else numbers.set(s.number, i);
    checkScenario(d, s, path, p, onBoard);
  });
}

/** The data of a file (its parsed JSON), or every problem found in it. */
export function validateBlackAndWhiteData(json: unknown, file: string): DataValidation {
  const p = new Problems(file);
  object(json, '', p, FILE_FIELDS, 'a Black & White data file');
  if (p.all.length > 0) return { ok: false, problems: p.all };
  const data = json as unknown as BlackAndWhiteData;
  checkFile(data, p);
  return p.all.length > 0 ? { ok: false, problems: p.all } : { ok: true, data };
}
