// The webhook delivery job: sends the outbox's due messages (service/webhooks.ts deliverDue). A
// poller over Postgres like the clock sweep, on repeat.ts: every instance runs it, and each message
// is claimed by one instance for a lease (FOR UPDATE SKIP LOCKED in a single statement), sent with
// no transaction open — on the embedded database the pool's one connection stays free while a
// receiver takes its time — then its attempt is recorded. A message whose instance died mid-send
// is due again when its lease ends (at-least-once). Runs once at start (what was due while every
// instance was down goes out then), then again after its interval or as soon as a commit of this
// instance wrote messages (the signal; only while the job has been finding messages lately); a run
// goes on while there is work (claiming as requests finish).
//
// The pruning job deletes finished messages (delivered, or failed for good) and their attempts
// once they are older than the retention (HERALD_WEBHOOK_RETENTION_DAYS).
import { repeat, type ScheduledJob } from './repeat.ts';

export const WEBHOOK_SWEEP_MS = 1_000;
export const WEBHOOK_PRUNE_MS = 3_600_000;

export interface WebhookDeliveryOptions {
  /** Sends what is due; stops claiming once `stopping()`; resolves to how many messages were delivered. */
  deliver: (stopping: () => boolean) => Promise<number>;
  /** Between runs: resolves after `ms` or when woken; interrupt() ends the wait (stop). */
  signal: { wait(ms: number): Promise<void>; interrupt(): void };
  intervalMs?: number;
  log: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

export function startWebhookDeliveries(o: WebhookDeliveryOptions): ScheduledJob {
  let stopped = false;
  const intervalMs = o.intervalMs ?? WEBHOOK_SWEEP_MS;
  const loop = (async () => {
    while (!stopped) {
      await o.deliver(() => stopped).then(
        (delivered) => {
          if (delivered > 0) o.log.debug({ delivered }, 'webhook messages delivered');
        },
        (err: unknown) => o.log.warn({ err }, 'the webhook delivery run failed; it runs again later'),
      );
      if (!stopped) await o.signal.wait(intervalMs);
    }
  })();
  return {
    stop() {
      // The run in progress claims nothing more and ends when its requests have answered.
      stopped = true;
      o.signal.interrupt();
      return loop;
    },
  };
}

export interface WebhookPruneOptions {
  /** Deletes finished messages older than the retention; resolves to how many. */
  prune: () => Promise<number>;
  intervalMs?: number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export function startWebhookPruning(o: WebhookPruneOptions): ScheduledJob {
  return repeat(
    () =>
      o.prune().then(
        (deleted) => {
          if (deleted > 0) o.log.info({ deleted }, 'old webhook messages deleted');
        },
        (err: unknown) => o.log.warn({ err }, 'pruning old webhook messages failed; it runs again later'),
      ),
    o.intervalMs ?? WEBHOOK_PRUNE_MS,
  );
}
