// The webhook delivery job: sends the outbox's due messages (service/webhooks.ts deliverDue). A
// poller over Postgres like the clock sweep, on repeat.ts: every instance runs it, and each message
// is claimed by one instance for a lease (FOR UPDATE SKIP LOCKED in a single statement), sent with
// no transaction open — on the embedded database the pool's one connection stays free while a
// receiver takes its time — then its attempt is recorded. A message whose instance died mid-send
// is due again when its lease ends (at-least-once). Runs once at start (what was due while every
// instance was down goes out then) and at a short interval after.
import { repeat, type ScheduledJob } from './repeat.ts';

export const WEBHOOK_SWEEP_MS = 1_000;

export interface WebhookDeliveryOptions {
  /** Sends what is due; resolves to how many messages were delivered. */
  deliver: () => Promise<number>;
  intervalMs?: number;
  log: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

export function startWebhookDeliveries(o: WebhookDeliveryOptions): ScheduledJob {
  return repeat(
    () =>
      o.deliver().then(
        (delivered) => {
          if (delivered > 0) o.log.debug({ delivered }, 'webhook messages delivered');
        },
        (err: unknown) => o.log.warn({ err }, 'the webhook delivery run failed; it runs again later'),
      ),
    o.intervalMs ?? WEBHOOK_SWEEP_MS,
  );
}
