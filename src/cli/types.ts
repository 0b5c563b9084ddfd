/**
 * The shapes of the server's answers the client reads, as openapi.yaml
 * describes them (GameSummary, GameLog, Choice, ChoiceNode, GameRecord). Kept
 * here rather than imported from examples/client/schema.d.ts because src/ imports
 * nothing outside src/ (test/structure/layers.test.ts); fields the client does
 * not read are left out.
 */
export type Action = { type: string; [k: string]: unknown };

/** A game type the server hosts (GET /game-types): its seats and scenarios. */
export interface GameType {
  id: string;
  title: string;
  roles: string[];
  scenarios: { id: string; name: string; description: string }[];
  /** The levels Herald's AI plays it at (absent from servers before AI seats). */
  aiLevels?: string[];
}

export interface Seat {
  role: string;
  player: null | { id: string; name: string; isBot: boolean };
  invited: boolean;
  /** Herald's AI holds the seat (absent from servers before AI seats). */
  ai?: { level: string } | null;
}

export interface GameSummary {
  id: string;
  gameType: string;
  scenario: string;
  options: Record<string, boolean | number | string>;
  visibility: 'public' | 'private';
  status: 'setup' | 'active' | 'finished' | 'abandoned';
  version: number;
  activeRoles: string[];
  seats: Seat[];
  result: null | { winner: string | null; reason: string };
  createdAt: string;
}

export interface GameLog {
  gameId: string;
  version: number;
  role: string | null;
  lines: string[];
  lang: string;
}

export interface Choice {
  id: string;
  label: string;
  action: Action;
}

/** A step of the grouped choices: a group with at most 25 children, or a leaf with an action id. */
export interface ChoiceNode {
  label: string;
  id?: string;
  children?: ChoiceNode[];
}

export interface GameRecord {
  format: 'herald-game-record';
  formatVersion: number;
  gameType: string;
  scenario: string;
  version: number;
  actions: { role: string; action: Action }[];
  [k: string]: unknown;
}
