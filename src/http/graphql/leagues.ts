// League queries, mutations and type resolvers: thin adapters over the league
// methods of the game service, as REST's routes/leagues.ts. GraphQL enum
// values cannot hold "-", so the service's values with one (round-robin,
// forfeit-first, buchholz-cut1…) travel with "_" instead: toEnum / fromEnum
// translate at this edge. Tie-break values and per-side records, maps in the
// service, are lists here ({name, value}, {role, …}): a client cannot select
// the keys of a map it does not know.
import type { IResolvers } from 'mercurius';
import type { Json } from '../../bus/bus.ts';
import {
  isRoundNumber,
  ROUND_RULE,
  ServiceError,
  type Caller,
  type GameServiceApi,
  type League,
  type LeagueFilter,
  type LeagueSettingsInput,
  type LeagueStandings,
  type LeagueStatus,
  type LeagueUpdateInput,
  type Pairing,
  type PairingResult,
  type ReportableResult,
  type ResultChange,
  type Round,
  type StandingRow,
  type TieBreak,
} from '../../service/api.ts';
import { pairingEdits, pairingResult, pathId } from '../league-input.ts';
import type { HeraldContext } from './context.ts';

type Ctx = HeraldContext;

const MAX_PAGE_SIZE = 100;

/** A service value as a GraphQL enum value. */
export function toEnum<T extends string | null>(v: T): T {
  return (v === null ? null : v.replaceAll('-', '_')) as T;
}

/** A GraphQL enum value as the service's value. */
export function fromEnum<T extends string>(v: string): T {
  return v.replaceAll('_', '-') as T;
}

/** Optional GraphQL arguments arrive as null when given as null: the service wants undefined. */
function opt<T>(v: T | null | undefined): T | undefined {
  return v === null ? undefined : v;
}

function roundArg(v: unknown, what = 'round'): number {
  if (!isRoundNumber(v)) throw new ServiceError('invalid_request', `${what} must be ${ROUND_RULE}.`);
  return v;
}

function optionalRound(v: number | null | undefined): { round?: number } {
  return v === null || v === undefined ? {} : { round: roundArg(v) };
}

/** Settings that may be null in the service's input (null clears them); any other null is a mistake. */
const NULLABLE_SETTINGS = new Set(['harderSide', 'timeControl', 'vacationDays', 'maxEntrants', 'registrationOpensAt', 'registrationClosesAt', 'schedule']);

/** CreateLeagueInput / UpdateLeagueInput → the service's input: enums translated, explicit nulls checked. */
function settingsInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null) {
      if (!NULLABLE_SETTINGS.has(key)) throw new ServiceError('invalid_request', `${key} cannot be null: leave it out to keep its value.`);
      out[key] = null;
    } else if (key === 'format') {
      out[key] = fromEnum(value as string);
    } else if (key === 'tieBreaks') {
      out[key] = (value as string[]).map((t) => fromEnum<TieBreak>(t));
    } else if (key === 'options') {
      if (typeof value !== 'object' || Array.isArray(value)) throw new ServiceError('invalid_request', 'options must be a JSON object');
      out[key] = value as Record<string, Json>;
    } else if (key === 'pools' || key === 'points') {
      out[key] = { ...(value as object) }; // graphql-js input objects have a null prototype
    } else if (key === 'schedule') {
      // Fields left out or null keep their value (the service names a missing required one).
      const fields = Object.entries(value as object).filter(([, v]) => v !== null);
      out[key] = Object.fromEntries(fields.map(([k, v]) => [k, k === 'unfinished' ? fromEnum(v as string) : v]));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** GraphQL pairing edits: the fields of the op only; absent fields arrive absent, explicit nulls are dropped. */
function editsInput(edits: Array<Record<string, unknown>>) {
  return pairingEdits(edits.map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null))));
}

function notFoundIsNull<T>(p: Promise<T>): Promise<T | null> {
  return p.catch((err: unknown) => {
    if (err instanceof ServiceError && err.code === 'not_found') return null;
    throw err;
  });
}

export function leagueResolvers(service: GameServiceApi): IResolvers {
  const caller = (ctx: Ctx): Promise<Caller | null> => ctx.auth.optional();
  const required = (ctx: Ctx): Promise<Caller> => ctx.auth.required();
  const league = (id: unknown) => pathId(String(id), 'league');
  const pairing = (id: unknown) => pathId(String(id), 'pairing');
  const player = (id: unknown) => pathId(String(id), 'player');

  return {
    League: {
      format: (l: League) => toEnum(l.format),
      entrants: async (l: League, _args: unknown, ctx: Ctx) => service.listEntrants(await caller(ctx), l.id),
      rounds: async (l: League, _args: unknown, ctx: Ctx) => service.listRounds(await caller(ctx), l.id),
      standings: async (l: League, args: { round?: number | null }, ctx: Ctx) => service.getStandings(await caller(ctx), l.id, optionalRound(args.round)),
    },
    LeagueSettings: {
      tieBreaks: (s: League['settings']) => s.tieBreaks.map(toEnum),
    },
    RoundSchedule: {
      unfinished: (s: NonNullable<League['settings']['schedule']>) => toEnum(s.unfinished),
    },
    Round: {
      stage: (r: Round) => toEnum(r.stage),
    },
    Pairing: {
      result: (p: Pairing) => toEnum(p.result),
    },
    ResultChange: {
      before: (c: ResultChange) => toEnum(c.before),
      after: (c: ResultChange) => toEnum(c.after),
    },
    Standings: {
      tieBreaks: (s: LeagueStandings) => s.tieBreaks.map(toEnum),
      // The roles, for the rows' perSide (in seat order).
      standings: (s: LeagueStandings) => s.standings.map((row) => ({ ...row, roleOrder: [s.roles.first, s.roles.second] })),
    },
    StandingRow: {
      tieBreaks: (row: StandingRow) =>
        Object.entries(row.tieBreaks).map(([name, value]) => ({ name: toEnum(name), value })),
      perSide: (row: StandingRow & { roleOrder?: string[] }) => {
        const order = row.roleOrder ?? [];
        const roles = [...order.filter((r) => r in row.perSide), ...Object.keys(row.perSide).filter((r) => !order.includes(r))];
        return roles.map((role) => ({ role, ...row.perSide[role]! }));
      },
    },
    Query: {
      league: async (_root, args: { id: string }, ctx: Ctx) => {
        const c = await caller(ctx);
        // Nullable for "no such league": a malformed id names none either.
        return notFoundIsNull((async () => service.getLeague(c, league(args.id)))());
      },
      leagues: async (
        _root,
        args: { filter?: { gameType?: string | null; status?: LeagueStatus | null; playerId?: string | null; organiserId?: string | null } | null; first?: number | null; after?: string | null },
        ctx: Ctx,
      ) => {
        const first = args.first ?? 20;
        if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) throw new ServiceError('invalid_request', `first must be from 1 to ${MAX_PAGE_SIZE}`);
        const f = args.filter ?? {};
        const filter: LeagueFilter = {};
        if (f.gameType != null) filter.gameType = f.gameType;
        if (f.status != null) filter.status = f.status;
        if (f.playerId != null) filter.playerId = f.playerId;
        if (f.organiserId != null) filter.organiserId = f.organiserId;
        const page = await service.listLeagues(await caller(ctx), filter, { cursor: opt(args.after), limit: first });
        return { nodes: page.items, nextCursor: page.nextCursor };
      },
      leagueRound: async (_root, args: { leagueId: string; number: number }, ctx: Ctx) => {
        const c = await caller(ctx);
        const n = roundArg(args.number, 'number');
        return notFoundIsNull((async () => service.getRound(c, league(args.leagueId), n))());
      },
      leagueStandings: async (_root, args: { leagueId: string; round?: number | null }, ctx: Ctx) =>
        service.getStandings(await caller(ctx), league(args.leagueId), optionalRound(args.round)),
      leagueResultChanges: async (_root, args: { leagueId: string; pairingId?: string | null }, ctx: Ctx) =>
        service.listResultChanges(await required(ctx), league(args.leagueId), args.pairingId == null ? {} : { pairingId: pairing(args.pairingId) }),
    },
    Mutation: {
      createLeague: async (_root, args: { input: Record<string, unknown> }, ctx: Ctx) =>
        service.createLeague(await required(ctx), settingsInput(args.input) as unknown as LeagueSettingsInput),
      updateLeague: async (_root, args: { id: string; input: Record<string, unknown> }, ctx: Ctx) => {
        const c = await required(ctx);
        return service.updateLeague(c, league(args.id), settingsInput(args.input) as LeagueUpdateInput);
      },
      addLeagueOrganiser: async (_root, args: { leagueId: string; playerId: string }, ctx: Ctx) => {
        const c = await required(ctx);
        return service.addOrganiser(c, league(args.leagueId), player(args.playerId));
      },
      removeLeagueOrganiser: async (_root, args: { leagueId: string; playerId: string }, ctx: Ctx) => {
        const c = await required(ctx);
        return service.removeOrganiser(c, league(args.leagueId), player(args.playerId));
      },
      joinLeague: async (_root, args: { leagueId: string }, ctx: Ctx) => service.joinLeague(await required(ctx), league(args.leagueId)),
      withdrawFromLeague: async (_root, args: { leagueId: string }, ctx: Ctx) => service.withdrawFromLeague(await required(ctx), league(args.leagueId)),
      addLeagueEntrant: async (_root, args: { leagueId: string; playerId?: string | null; ai?: string | null; seed?: number | null }, ctx: Ctx) => {
        const c = await required(ctx);
        if (args.seed != null && (!Number.isInteger(args.seed) || args.seed < 1)) throw new ServiceError('invalid_request', 'seed must be a positive integer.');
        if (args.playerId == null && args.ai == null) throw new ServiceError('invalid_request', 'Give playerId (a player) or ai (Herald\'s AI at a level).', { field: 'playerId' });
        return service.addEntrant(c, league(args.leagueId), {
          ...(args.playerId != null ? { playerId: player(args.playerId) } : {}),
          ...(args.ai != null ? { ai: args.ai } : {}),
          ...(args.seed != null ? { seed: args.seed } : {}),
        });
      },
      updateLeagueEntrant: async (
        _root,
        args: { leagueId: string; playerId: string; seed?: number | null; status?: 'withdrawn' | 'disqualified' | null; reason?: string | null },
        ctx: Ctx,
      ) => {
        const c = await required(ctx);
        const input: { seed?: number | null; status?: 'withdrawn' | 'disqualified'; reason?: string } = {};
        // seed: explicitly null clears it; left out keeps it.
        if ('seed' in args && args.seed !== undefined) {
          if (args.seed !== null && (!Number.isInteger(args.seed) || args.seed < 1)) throw new ServiceError('invalid_request', 'seed must be a positive integer or null.');
          input.seed = args.seed;
        }
        if (args.status != null) input.status = args.status;
        if (args.reason != null) input.reason = args.reason;
        if (Object.keys(input).length === 0) throw new ServiceError('invalid_request', 'Give seed, status or reason.');
        return service.updateEntrant(c, league(args.leagueId), player(args.playerId), input);
      },
      setLeagueStandIn: async (_root, args: { leagueId: string; playerId: string; ai: string; reason?: string | null }, ctx: Ctx) => {
        const c = await required(ctx);
        return service.setStandIn(c, league(args.leagueId), player(args.playerId), { ai: args.ai, ...(args.reason != null ? { reason: args.reason } : {}) });
      },
      removeLeagueStandIn: async (_root, args: { leagueId: string; playerId: string }, ctx: Ctx) => service.removeStandIn(await required(ctx), league(args.leagueId), player(args.playerId)),
      removeLeagueEntrant: async (_root, args: { leagueId: string; playerId: string }, ctx: Ctx) => {
        const c = await required(ctx);
        await service.removeEntrant(c, league(args.leagueId), player(args.playerId));
        return true;
      },
      startLeague: async (_root, args: { leagueId: string }, ctx: Ctx) => service.startLeague(await required(ctx), league(args.leagueId)),
      generateRound: async (_root, args: { leagueId: string }, ctx: Ctx) => service.generateRound(await required(ctx), league(args.leagueId)),
      editPairings: async (_root, args: { leagueId: string; round: number; edits: Array<Record<string, unknown>> }, ctx: Ctx) => {
        const c = await required(ctx);
        return service.editPairings(c, league(args.leagueId), roundArg(args.round), editsInput(args.edits));
      },
      publishRound: async (_root, args: { leagueId: string; round: number }, ctx: Ctx) => {
        const c = await required(ctx);
        return service.publishRound(c, league(args.leagueId), roundArg(args.round));
      },
      deleteDraftRound: async (_root, args: { leagueId: string; round: number }, ctx: Ctx) => {
        const c = await required(ctx);
        await service.deleteDraftRound(c, league(args.leagueId), roundArg(args.round));
        return true;
      },
      reportResult: async (_root, args: { leagueId: string; pairingId: string; result: ReportableResult }, ctx: Ctx) => {
        const c = await required(ctx);
        return service.reportResult(c, league(args.leagueId), pairing(args.pairingId), { result: args.result });
      },
      confirmResult: async (_root, args: { leagueId: string; pairingId: string }, ctx: Ctx) => {
        const c = await required(ctx);
        return service.confirmResult(c, league(args.leagueId), pairing(args.pairingId));
      },
      setResult: async (_root, args: { leagueId: string; pairingId: string; result?: string | null; reason: string }, ctx: Ctx) => {
        const c = await required(ctx);
        // Leaving result out would clear it by accident: null must be asked for.
        if (!('result' in args) || args.result === undefined) throw new ServiceError('invalid_request', 'result is required (null clears the result).');
        const result: PairingResult | null = args.result === null ? null : pairingResult(fromEnum(args.result));
        if (args.reason.trim() === '') throw new ServiceError('invalid_request', 'reason must not be empty.');
        return service.setResult(c, league(args.leagueId), pairing(args.pairingId), { result, reason: args.reason });
      },
    },
  };
}
