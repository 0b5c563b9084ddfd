/**
 * Game options against their declaration (ScenarioInfo.options): the one check
 * the service runs before it stores a game or imports a record, and that a
 * module's setup() may run again to read its options with their defaults. One
 * function for both, so what is published is exactly what is enforced.
 */
import type { OptionDeclaration, OptionValue } from './types.ts';

export type OptionProblem =
  | { problem: 'unknown'; option: string; detail: string }
  | { problem: 'type' | 'range'; option: string; detail: string; declaration: OptionDeclaration };

export type OptionsCheck = { ok: true; options: Record<string, OptionValue> } | ({ ok: false } & OptionProblem);

function describe(d: OptionDeclaration): string {
  switch (d.type) {
    case 'boolean':
      return 'true or false';
    case 'integer':
      return `a whole number from ${d.min} to ${d.max}`;
    case 'string':
      return `one of ${d.values.map((v) => JSON.stringify(v)).join(', ')}`;
  }
}

function problemOf(d: OptionDeclaration, value: unknown): 'type' | 'range' | null {
  switch (d.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'type';
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'type';
      return value >= d.min && value <= d.max ? null : 'range';
    case 'string':
      if (typeof value !== 'string') return 'type';
      return d.values.includes(value) ? null : 'range';
  }
}

/**
 * Checks `given` (a plain object) against `declared`; on success, every
 * declared option with its value (the default where `given` leaves it out).
 * The first problem found is reported, naming the option.
 */
export function checkOptions(declared: readonly OptionDeclaration[], given: Record<string, unknown>): OptionsCheck {
  const byName = new Map(declared.map((d) => [d.name, d]));
  for (const name of Object.keys(given)) {
    if (!byName.has(name)) {
      const known = declared.length ? `the options are ${declared.map((d) => d.name).join(', ')}` : 'this scenario takes no options';
      return { ok: false, problem: 'unknown', option: name, detail: `Unknown option "${name}": ${known}.` };
    }
  }
  const options: Record<string, OptionValue> = {};
  for (const d of declared) {
    if (!Object.hasOwn(given, d.name)) {
      options[d.name] = d.default;
      continue;
    }
    const value = given[d.name];
    const problem = problemOf(d, value);
    if (problem) {
      const detail = `Option "${d.name}" must be ${describe(d)}, not ${JSON.stringify(value) ?? String(value)}.`;
      return { ok: false, problem, option: d.name, detail, declaration: d };
    }
    options[d.name] = value as OptionValue;
  }
  return { ok: true, options };
}
