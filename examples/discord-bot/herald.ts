// The bot's side of Herald: one application key, acting for Discord users as Herald players
// (created by externalId "discord:<user id>", X-Act-As on every request). Plain fetch, typed
// by the schema generated from openapi.yaml (examples/client/schema.d.ts).
import type { components } from '../client/schema.d.ts';

export type Game = components['schemas']['GameSummary'];
export type ChoiceNode = components['schemas']['ChoiceNode'];
export interface Actions {
  gameId: string;
  version: number;
  role: string;
  active: boolean;
  tree?: ChoiceNode;
}

/** A refusal from Herald: its HTTP status and problem code (version_conflict, illegal_action, forbidden, ...). */
export class HeraldError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;
  constructor(status: number, code: string, body: Record<string, unknown>) {
    super(`Herald ${status} ${code}: ${typeof body.detail === 'string' ? body.detail : ''}`);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export interface HeraldOptions {
  url: string;
  appKey: string;
  /** Language of labels and pictures (en, pl, cs, ru). */
  lang?: string;
  scenario?: string;
}

export class Herald {
  readonly lang: string;
  readonly o: HeraldOptions;
  constructor(o: HeraldOptions) {
    this.o = o;
    this.lang = o.lang ?? 'en';
  }

  private async call(method: string, path: string, o: { as?: string; body?: unknown } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.o.appKey}` };
    if (o.as) headers['x-act-as'] = o.as;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.o.url}${path}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      throw new HeraldError(res.status, typeof body.code === 'string' ? body.code : 'error', body);
    }
    return res;
  }

  private async json<T>(method: string, path: string, o: { as?: string; body?: unknown } = {}): Promise<T> {
    return (await (await this.call(method, path, o)).json()) as T;
  }

  /** The Herald player of a Discord user (get or create: the same externalId gives the same player). */
  async player(discordId: string, name: string): Promise<string> {
    const r = await this.json<{ player: { id: string } }>('POST', '/players', { body: { name: name.slice(0, 64), externalId: `discord:${discordId}` } });
    return r.player.id;
  }

  /** A game between two players, York the challenger; it starts when the opponent takes their seat. */
  /** A game with York taken by `york`; `ai` gives seats to Herald's AI (`{ Lancaster: 'random' }`), which then starts it. */
  async createGame(york: string, scenario = this.o.scenario ?? 'richard-iii', ai?: Record<string, string>): Promise<Game> {
    return this.json<Game>('POST', '/games', { as: york, body: { gameType: 'richard-iii', scenario, visibility: 'public', roles: ['York'], autoStart: true, ...(ai ? { ai } : {}) } });
  }

  join(gameId: string, player: string): Promise<Game> {
    return this.json<Game>('POST', `/games/${gameId}/join`, { as: player, body: { role: 'Lancaster' } });
  }

  game(gameId: string): Promise<Game> {
    return this.json<Game>('GET', `/games/${gameId}`);
  }

  /** The player's legal actions now, grouped for menus of at most 25 options. */
  actions(gameId: string, player: string): Promise<Actions> {
    return this.json<Actions>('GET', `/games/${gameId}/actions?group=tree&lang=${this.lang}`, { as: player });
  }

  /** Submits one action by its id; Herald refuses it (409 / 422) when the version moved on. */
  submit(gameId: string, player: string, actionId: string, expectedVersion: number): Promise<{ version: number; game: Game; legalActions: unknown[] }> {
    return this.json('POST', `/games/${gameId}/actions`, { as: player, body: { actionId, expectedVersion } });
  }

  /** The player's own seat view (their blocks and hand; enemy blocks only as counts). */
  view(gameId: string, player: string): Promise<{ role: string | null; version: number; view: Record<string, unknown> }> {
    return this.json('GET', `/games/${gameId}/view`, { as: player });
  }

  /**
   * The board picture: `role` a seat the player holds (their private picture) or 'spectator';
   * null when the game type has no pictures (404, reason no_pictures): the bot posts text alone.
   */
  async picture(gameId: string, o: { role: string; as?: string; version?: number }): Promise<Buffer | null> {
    const q = new URLSearchParams({ role: o.role, lang: this.lang, ...(o.version !== undefined ? { version: String(o.version) } : {}) });
    try {
      return Buffer.from(await (await this.call('GET', `/games/${gameId}/board.png?${q}`, { as: o.as })).arrayBuffer());
    } catch (err) {
      if (err instanceof HeraldError && err.status === 404 && err.body.reason === 'no_pictures') return null;
      throw err;
    }
  }

  resign(gameId: string, player: string): Promise<Game> {
    return this.json<Game>('POST', `/games/${gameId}/resign`, { as: player, body: {} });
  }

  /** Same players, sides swapped; the bot acts for both, so the new game starts at once. */
  rematch(gameId: string, player: string): Promise<Game> {
    return this.json<Game>('POST', `/games/${gameId}/rematch`, { as: player });
  }

  /**
   * The application's webhook endpoint for `url` (the events of every player it created), and
   * its signing secret: registered, or, when it already exists, its secret rotated (the secret
   * is only ever shown once; the old one keeps signing for 24 hours).
   */
  async webhook(url: string, events: string[]): Promise<{ id: string; secret: string }> {
    const list = await this.json<{ webhooks: { id: string; url: string }[] }>('GET', '/webhooks');
    const found = list.webhooks.find((w) => w.url === url);
    if (found) {
      await this.json('PATCH', `/webhooks/${found.id}`, { body: { events, enabled: true } });
      const r = await this.json<{ secret: string }>('POST', `/webhooks/${found.id}/rotate-secret`);
      return { id: found.id, secret: r.secret };
    }
    const r = await this.json<{ webhook: { id: string }; secret: string }>('POST', '/webhooks', { body: { url, events } });
    return { id: r.webhook.id, secret: r.secret };
  }
}
