// What games this server hosts, and the check of a new game's options against
// its scenario's declaration (engine/options.ts) that creation and import share.
import { checkOptions } from '../engine/options.ts';
import type { GameModule, OptionValue } from '../engine/types.ts';
import type { GameTypeInfo } from './api.ts';
import type { Ctx } from './context.ts';
import { ServiceError, type ErrorCode } from './errors.ts';
import { aiLevelsOf } from './ai-seats.ts';

/** The playable game types, then those that are not (with why). */
export function listGameTypes(ctx: Ctx): GameTypeInfo[] {
  const invented = new Map((ctx.dataGames ?? []).map((g) => [g.id, g.invented]));
  const playable: GameTypeInfo[] = Object.values(ctx.games).map((m) => ({
    id: m.id,
    title: m.title,
    playable: true,
    invented: invented.get(m.id) ?? false,
    missing: [],
    roles: [...m.roles],
    scenarios: m.scenarios.map((s) => ({ id: s.id, name: s.name, description: s.description, options: [...s.options] })),
    aiLevels: aiLevelsOf(m),
  }));
  const unplayable: GameTypeInfo[] = (ctx.dataGames ?? [])
    .filter((g) => g.missing.length > 0)
    .map((g) => ({ id: g.id, title: g.title, playable: false, invented: false, missing: g.missing.map((r) => ({ ...r })), roles: [], scenarios: [], aiLevels: [] }));
  return [...playable, ...unplayable];
}

/**
 * The options of a new game of `scenario` (a scenario of `m`), defaults filled
 * in; a ServiceError with `code` naming the first bad option otherwise.
 */
export function resolveOptions(m: GameModule, scenario: string, given: Record<string, unknown>, code: ErrorCode): Record<string, OptionValue> {
  const declared = m.scenarios.find((s) => s.id === scenario)!.options;
  const checked = checkOptions(declared, given);
  if (checked.ok) return checked.options;
  const { ok: _ok, detail, ...extensions } = checked;
  throw new ServiceError(code, detail, { ...extensions, field: 'options' });
}
