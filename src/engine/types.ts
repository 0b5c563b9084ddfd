/**
 * The game-module contract. Every game Herald hosts is a pure, deterministic
 * module of this shape: the service never touches a game's state except
 * through these functions. State and actions are plain JSON values.
 */
import type { RngState } from './rng.ts';

export interface ScenarioInfo {
  id: string;
  name: string;
  description: string;
  /**
   * The options a game of this scenario accepts (empty: none). Declared per
   * scenario because ranges can depend on it (a scenario that starts in a
   * later campaign cannot end before it). The service rejects any option not
   * declared here, of another type or outside its range, before setup().
   */
  options: readonly OptionDeclaration[];
}

interface OptionBase {
  /** The key in a game's `options` object. */
  name: string;
  description: string;
}

/** One game option: its type, the values it may take and its default (used when it is left out). */
export type OptionDeclaration =
  | (OptionBase & { type: 'boolean'; default: boolean })
  /** A whole number from min to max, both included. */
  | (OptionBase & { type: 'integer'; min: number; max: number; default: number })
  /** One of `values`. */
  | (OptionBase & { type: 'string'; values: readonly string[]; default: string });

export type OptionValue = boolean | number | string;

/** One change to a game log: cut it to `from` entries, then append `entries`. */
export interface LogChange<Entry = unknown> {
  from: number;
  entries: Entry[];
}

/** The whole log from its changes, oldest first. */
export function foldLog<T>(changes: Iterable<LogChange<T>>): T[] {
  const out: T[] = [];
  for (const c of changes) {
    out.length = Math.min(out.length, c.from);
    for (const e of c.entries) out.push(e);
  }
  return out;
}

/**
 * A sentence a person reads (an action's label, a log line), as a message key
 * and its parameters rather than as text, so that it can be worded in any
 * language from the game's message catalogues (src/i18n formats it). A
 * parameter is plain text or a number, a reference to one of the game's named
 * things (`{ ref: 'area', id: 'kent' }`: the catalogue's `area.kent`), a list
 * (joined as the language joins lists) or another message.
 */
export type MessageParam = string | number | { ref: string; id: string } | { list: MessageParam[] } | { msg: Message };
export interface Message {
  key: string;
  params?: Record<string, MessageParam>;
}

export interface GameStatus {
  over: boolean;
  winner: string | null;
  reason?: string;
}

export interface GameModule<State = unknown, Action = unknown> {
  readonly id: string;
  readonly title: string;
  readonly roles: readonly string[];
  readonly scenarios: readonly ScenarioInfo[];
  /**
   * The game's published facts a client needs to draw its own board (map,
   * blocks, cards, scenarios…), one JSON document per name. Every seat and
   * every spectator may read all of it: nothing here may depend on a game's
   * state. Served at versioned URLs (service/game-data.ts); the name
   * `options` is taken by the scenarios' option declarations.
   */
  readonly data?: Readonly<Record<string, unknown>>;
  /**
   * A new game. `options` has passed the scenario's declaration (the service
   * checks it, see ScenarioInfo.options); an option left out takes its default.
   */
  setup(o: { scenario: string; seed: string; options?: Record<string, unknown> }): State;
  /** Who may act now (both during simultaneous card play); [] when the game is over. */
  activeRoles(state: State): string[];
  /** The complete list of legal actions for that role, as JSON values. */
  legalActions(state: State, role: string): Action[];
  /** Never mutates its input; throws IllegalActionError for anything not in legalActions. */
  apply(state: State, role: string, action: Action): State;
  /** JSON for that seat; null = spectator. Built by allow-list, never by stripping. */
  view(state: State, role: string | null): unknown;
  /**
   * What the change that made `state` did to the game log: cut the log to
   * `from` entries, then append `entries` (an undo cuts without appending).
   * States do not carry the whole log (it would grow every state, and every
   * stored snapshot, with the length of the game); the service stores each
   * change with its version and the log is their fold (foldLog). Entries are
   * JSON that may hold what only one seat may read: never send them, send
   * logLine(entry, role).
   */
  logChange(state: State): LogChange;
  /**
   * Why `action` is refused when it is not one of legalActions(state, role),
   * where the module can say more than "not legal" (e.g. a purchase that would
   * leave an army unable to deploy); null when it cannot. Optional.
   */
  refusal?(state: State, role: string, action: Action): string | null;
  /** A log entry as that seat (null = spectator) may read it. */
  logLine(entry: unknown, role: string | null): string;
  status(state: State): GameStatus;
  /**
   * Readable actions (optional). `messagesDir`: the folder of the game's
   * message catalogues, one sub-folder per language holding `<area>.json`
   * files of flat keys → ICU MessageFormat strings.
   */
  readonly messagesDir?: string;
  /**
   * An action of legalActions(state, role) as a sentence for that role. It may
   * name only what that seat may see (it is shown to that seat alone).
   */
  describeAction?(state: State, role: string, action: Action): Message;
  /**
   * Where the action sits in a menu of choices (outermost group first, e.g.
   * [the block] for "move it to …"); [] = at the top. Used to group long
   * lists for chat menus; the same visibility rule as describeAction.
   */
  actionGroups?(state: State, role: string, action: Action): Message[];
  /** A log entry as a message for that seat (null = spectator), or null when the entry has none (older games). */
  logMessage?(entry: unknown, role: string | null): Message | null;
  /**
   * Determinization, for computer players (src/ai) that play from one seat's
   * view: a full state that `role`'s view (`view(state, role)`) could have come
   * from, with every fact the view hides (enemy pieces, hands, deck order, the
   * RNG, hidden parts of the flow) drawn with `rng`, which is advanced. It
   * depends on nothing but (view, role, rng): two states with the same view give
   * the same sample for the same rng. Properties the game's tests hold it to:
   * view(sample, role) equals `view` (the log aside: a sample has none);
   * activeRoles agree, and so do role's legal actions when it is active (bar
   * undo: a sample has no undo history); the sample is a sound state that play
   * can continue from to the game's end. Optional: a game without it can be
   * played only by the random level.
   */
  sampleState?(view: unknown, role: string, rng: RngState): State;
  /**
   * A cheap estimate, in [0, 1], of how likely `role` is to win from `state`
   * (0.5: even). Optional; the computer players' search uses it to score
   * playouts cut short by their depth limit. Pure and deterministic.
   */
  evaluate?(state: State, role: string): number;
  /**
   * Whether `role`'s next decision completes a move it has begun (a block
   * chosen, its destination not yet), so that `evaluate` does not yet see what
   * the move is worth. Optional; the search completes such moves greedily
   * (best completion under evaluate) before it scores a position. Pure.
   */
  partialMove?(state: State, role: string): boolean;
}

/** Thrown by apply() for anything that is not one of legalActions(). */
export class IllegalActionError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`illegal action: ${reason}`);
    this.name = 'IllegalActionError';
    this.reason = reason;
  }
}
