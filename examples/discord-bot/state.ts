// What the bot remembers about each game: its channel, its board message (edited in place) and
// which Discord user holds which seat. Kept in a JSON file when STATE_FILE is set, so a restart
// keeps editing the same messages (buttons and menus need no memory: see ids.ts).
import { readFileSync, writeFileSync, renameSync } from 'node:fs';

export interface GameRecord {
  channelId: string;
  /** The board message, once posted. */
  messageId: string | null;
  /** The version its picture shows. */
  shown: number;
  /** Discord user id per role. */
  seats: Record<string, string>;
}

export class State {
  private games: Record<string, GameRecord> = {};

  private readonly file: string | null;
  constructor(file: string | null = null) {
    this.file = file;
    if (file) {
      try {
        this.games = JSON.parse(readFileSync(file, 'utf8')) as Record<string, GameRecord>;
      } catch {
        this.games = {};
      }
    }
  }

  get(gameId: string): GameRecord | undefined {
    return this.games[gameId];
  }

  set(gameId: string, r: GameRecord): void {
    this.games[gameId] = r;
    this.save();
  }

  /** The newest game in `channelId` where `userId` holds a seat. */
  latest(channelId: string, userId: string): string | undefined {
    const ids = Object.keys(this.games).filter((id) => this.games[id]!.channelId === channelId && Object.values(this.games[id]!.seats).includes(userId));
    return ids[ids.length - 1];
  }

  private save(): void {
    if (!this.file) return;
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.games));
    renameSync(`${this.file}.tmp`, this.file);
  }
}
