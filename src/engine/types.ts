/**
 * The game-module contract. Every game Herald hosts is a pure, deterministic
 * module of this shape: the service never touches a game's state except
 * through these functions. State and actions are plain JSON values.
 */
export interface ScenarioInfo {
  id: string;
  name: string;
  description: string;
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
  setup(o: { scenario: string; seed: string; options?: Record<string, unknown> }): State;
  /** Who may act now (both during simultaneous card play); [] when the game is over. */
  activeRoles(state: State): string[];
  /** The complete list of legal actions for that role, as JSON values. */
  legalActions(state: State, role: string): Action[];
  /** Never mutates its input; throws IllegalActionError for anything not in legalActions. */
  apply(state: State, role: string, action: Action): State;
  /** JSON for that seat; null = spectator. Built by allow-list, never by stripping. */
  view(state: State, role: string | null): unknown;
  status(state: State): GameStatus;
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
