// Prometheus metrics at GET /metrics (text format), one registry per app (no
// process-wide default registry, so several apps in one process — the tests —
// do not mix their numbers):
//   herald_http_requests_total{method,route,status}
//   herald_http_request_duration_seconds{method,route,status}  (not for SSE streams)
//   herald_action_duration_seconds{game_type}   submitAction start → commit (from the game service)
//   herald_games{status}                        counted in the database at each scrape
//   herald_bus_publish_failures_total{channel}  publishes that failed after a commit (channel: game | player)
//   herald_sse_streams{stream}                  open Server-Sent Events streams (game | me)
//   herald_sse_view_reads_total                 views read for game streams (one per version per shared feed, not per stream)
//   herald_sse_version_events_encoded_total     game stream version events serialised (once per version per shared feed)
//   herald_sse_version_events_sent_total        version events written to streams (encoded ones are sent to every stream due them)
//   herald_commit_statements_total              commit statements sent to the database
//   herald_commit_changes_total                 commits they carried (group commit: changes ÷ statements per statement)
// plus Node's process metrics (process_*, nodejs_*). The game service reports
// through its observe() hook (api.ts ServiceObserver), wired here when the
// app has one.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { errorMessage } from '../../errors.ts';

export interface AppMetrics {
  readonly registry: Registry;
  /** One committed engine action: milliseconds from the start of the request's handling to commit. */
  observeAction(ms: number, gameType: string): void;
  /** One commit statement sent, carrying `changes` commits. */
  commitStatement(changes: number): void;
  /** A bus publish that failed after a commit. */
  busPublishFailed(channel: string): void;
  sseOpened(stream: 'game' | 'me' | 'app'): void;
  sseClosed(stream: 'game' | 'me' | 'app'): void;
  /** A game stream feed read a view; a version event was serialised; `n` streams were sent one. */
  sseViewRead(): void;
  sseEventEncoded(): void;
  sseEventsSent(n: number): void;
  /** One answered HTTP request; `seconds` null for streams (their duration is not a latency). */
  observeRequest(method: string, route: string, status: number, seconds: number | null): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

const GAME_STATUSES = ['setup', 'active', 'finished', 'abandoned'] as const;

/** `game:<id>` → `game`: ids would make one time series per game. */
function channelKind(channel: string): string {
  const kind = channel.split(':')[0] ?? '';
  return kind === 'game' || kind === 'player' ? kind : 'other';
}

type Labels = Record<string, string>;
/** A value as prom-client's metrics give them to the registry (get()). */
type Value = { value: number; labels: Record<string, string | number>; sharedLabels?: Labels; metricName?: string };

interface Series {
  labels: Labels;
  /** Every observation (the counter's value). */
  count: number;
  /** Observations with a duration: the histogram's count, sum and buckets (per bound, not cumulative). */
  timed: number;
  sum: number;
  buckets: number[];
}

/**
 * A histogram by label set, with the counter of its series beside it, kept in plain numbers
 * under a key the caller builds: prom-client's observe() converts, validates and hashes its
 * labels on every call, a cost paid per request (bench:service). Registered with the
 * registry as prom-client metrics are (get() in prom-client's value shape), so /metrics
 * prints the same text.
 */
class SeriesTable {
  private readonly series = new Map<string, Series>();

  private readonly bounds: readonly number[];
  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
  }

  /** One observation; `seconds` null: counted, not timed (SSE streams). */
  observe(key: string, labels: () => Labels, seconds: number | null): void {
    let s = this.series.get(key);
    if (s === undefined) {
      s = { labels: labels(), count: 0, timed: 0, sum: 0, buckets: this.bounds.map(() => 0) };
      this.series.set(key, s);
    }
    s.count++;
    if (seconds === null || !Number.isFinite(seconds)) return;
    s.timed++;
    s.sum += seconds;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]!) {
        s.buckets[i]!++;
        break;
      }
    }
  }

  /** The counter of the series, as a prom-client metric. */
  counter(name: string, help: string, registry: Registry): void {
    registry.registerMetric(this.metric(name, help, 'counter', () => [...this.series.values()].map((s) => ({ value: s.count, labels: s.labels }))));
  }

  /** The histogram of the timed observations, as prom-client writes one (buckets, +Inf, sum, count per series). */
  histogram(name: string, help: string, registry: Registry): void {
    registry.registerMetric(
      this.metric(name, help, 'histogram', () => {
        const values: Value[] = [];
        for (const s of this.series.values()) {
          if (s.timed === 0) continue;
          let acc = 0;
          this.bounds.forEach((le, i) => {
            acc += s.buckets[i]!;
            values.push({ labels: { le }, sharedLabels: s.labels, value: acc, metricName: `${name}_bucket` });
          });
          values.push(
            { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.timed, metricName: `${name}_bucket` },
            { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${name}_sum` },
            { labels: {}, sharedLabels: s.labels, value: s.timed, metricName: `${name}_count` },
          );
        }
        return values;
      }),
    );
  }

  private metric(name: string, help: string, type: 'counter' | 'histogram', values: () => Value[]) {
    const table = this;
    return {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => table.series.clear(),
    } as unknown as Parameters<Registry['registerMetric']>[0];
  }
}

export function createAppMetrics(countGames: () => Promise<Record<string, number>>, onCollectError: (err: unknown) => void): AppMetrics {
  const registry = new Registry();
  // The event-loop lag histogram samples every 100 ms, not prom-client's default 10 ms: its timer
  // wakes the process 100 times a second, idle or not (~2.5 ms of CPU a second here, against
  // ~0.7 at 100 ms); a block of the loop still shows as lag of the next sample.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });

  // Observed on every request and action: kept in plain numbers (SeriesTable).
  const requests = new SeriesTable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  requests.counter('herald_http_requests_total', 'HTTP requests answered, by route template, method and status.', registry);
  requests.histogram('herald_http_request_duration_seconds', 'Time to answer HTTP requests (SSE streams excluded), by route template, method and status.', registry);
  const actions = new SeriesTable([0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]);
  actions.histogram('herald_action_duration_seconds', 'Latency of committed game actions (validation, engine, transaction), by game type.', registry);
  const publishFailures = new Counter({
    name: 'herald_bus_publish_failures_total',
    help: 'Bus publishes that failed after a commit (subscribers catch up from the database).',
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  publishFailures.inc({ channel: 'game' }, 0);
  publishFailures.inc({ channel: 'player' }, 0);
  const statements = new Counter({
    name: 'herald_commit_statements_total',
    help: 'Commit statements sent to the database (group commit sends the commits of concurrent requests together).',
    registers: [registry],
  });
  const changes = new Counter({
    name: 'herald_commit_changes_total',
    help: 'Commits carried by those statements.',
    registers: [registry],
  });
  const streams = new Gauge({
    name: 'herald_sse_streams',
    help: 'Open Server-Sent Events streams.',
    labelNames: ['stream'] as const,
    registers: [registry],
  });
  const viewReads = new Counter({
    name: 'herald_sse_view_reads_total',
    help: 'Views read for game streams (streams of the same game, caller and seat share a feed: one read per version, more only to start or catch up).',
    registers: [registry],
  });
  const encoded = new Counter({
    name: 'herald_sse_version_events_encoded_total',
    help: 'Version events of game streams serialised (once per version per shared feed).',
    registers: [registry],
  });
  const sent = new Counter({
    name: 'herald_sse_version_events_sent_total',
    help: 'Version events written to game streams.',
    registers: [registry],
  });
  streams.set({ stream: 'game' }, 0);
  streams.set({ stream: 'me' }, 0);
  streams.set({ stream: 'app' }, 0);
  new Gauge({
    name: 'herald_games',
    help: 'Games by status (counted in the database at scrape time).',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      try {
        const counts = await countGames();
        for (const status of GAME_STATUSES) this.set({ status }, counts[status] ?? 0);
      } catch (err) {
        // A scrape still answers (process and HTTP metrics) while the database is down.
        this.reset();
        onCollectError(err);
      }
    },
  });

  return {
    registry,
    observeAction: (ms, gameType) => actions.observe(gameType, () => ({ game_type: gameType }), ms / 1000),
    commitStatement(n) {
      statements.inc();
      changes.inc(n);
    },
    busPublishFailed: (channel) => publishFailures.inc({ channel: channelKind(channel) }),
    sseOpened: (stream) => streams.inc({ stream }),
    sseClosed: (stream) => streams.dec({ stream }),
    sseViewRead: () => viewReads.inc(),
    sseEventEncoded: () => encoded.inc(),
    sseEventsSent: (n) => sent.inc(n),
    observeRequest(method, route, status, seconds) {
      requests.observe(`${method} ${status} ${route}`, () => ({ method, route, status: String(status) }), seconds);
    },
  };
}

async function metrics(app: FastifyInstance): Promise<void> {
  const m = createAppMetrics(
    async () => {
      const rows = await app.store.prisma.game.groupBy({ by: ['status'], _count: { _all: true } });
      return Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
    },
    (err) => app.log.warn({ error: errorMessage(err) }, 'metrics: cannot count games'),
  );
  app.decorate('metrics', m);

  app.addHook('onResponse', (request, reply, done) => {
    // The route template (/games/:id), never the URL: one series per route, not per game.
    const route = request.routeOptions.url ?? 'unmatched';
    const type = reply.getHeader('content-type');
    const stream = typeof type === 'string' && type.startsWith('text/event-stream');
    m.observeRequest(request.method, route, reply.statusCode, stream ? null : reply.elapsedTime / 1000);
    done();
  });

  // The game service (CORE) reports actions and publish failures through its observer hook.
  app.addHook('onReady', async () => {
    const service = (app as unknown as { gameService?: { observe?(o: object): void } }).gameService;
    service?.observe?.({
      actionCommitted: (ms: number, gameType: string) => m.observeAction(ms, gameType),
      publishFailed: (channel: string) => m.busPublishFailed(channel),
      commitStatement: (changes: number) => m.commitStatement(changes),
    });
  });

  app.get('/metrics', async (_request, reply) => {
    const text = await m.registry.metrics();
    return reply.type(m.registry.contentType).send(text);
  });
}

export default fp(metrics, { name: 'herald-metrics', dependencies: ['herald-services'] });
