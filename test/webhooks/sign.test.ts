// Standard Webhooks signatures: the reference test vector, rotation's two signatures, and that the
// library's own verify accepts what Herald signs; the retry schedule and Retry-After parsing.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { newSecret, signatureHeader } from '../../src/webhooks/sign.ts';
import { retryAfterMs, retryDelay, RETRY_SCHEDULE_MS } from '../../src/webhooks/backoff.ts';

t.test('the Standard Webhooks test vector', async (t) => {
  const sig = signatureHeader(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], 'msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), '{"test": 2432232314}');
  t.equal(sig, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
});

t.test('a new secret is whsec_ + base64 of 32 bytes; both rotation secrets verify', async (t) => {
  const a = newSecret();
  const b = newSecret();
  t.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
  t.equal(Buffer.from(a.slice(6), 'base64').length, 32);
  t.not(a, b);
  const at = new Date();
  const body = JSON.stringify({ type: 'ping' });
  const header = signatureHeader([b, a], 'msg_1', at, body);
  t.equal(header.split(' ').length, 2);
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': header };
  t.same(new Webhook(a).verify(body, headers), { type: 'ping' }, 'the old secret verifies');
  t.same(new Webhook(b).verify(body, headers), { type: 'ping' }, 'the new secret verifies');
  t.throws(() => new Webhook(newSecret()).verify(body, headers), 'another secret does not');
  t.throws(() => new Webhook(a).verify(body + ' ', headers), 'a changed body does not');
});

t.test('retries: full jitter within each step of the schedule, then give up; Retry-After', async (t) => {
  t.equal(RETRY_SCHEDULE_MS.length, 9);
  t.equal(retryDelay(1, RETRY_SCHEDULE_MS, () => 1), 5_000);
  t.equal(retryDelay(1, RETRY_SCHEDULE_MS, () => 0), 0);
  t.equal(retryDelay(9, RETRY_SCHEDULE_MS, () => 0.5), 43_200_000);
  t.equal(retryDelay(10, RETRY_SCHEDULE_MS, () => 0.5), null, 'after 10 attempts: give up');
  t.equal(retryAfterMs('7', 0), 7_000);
  t.equal(retryAfterMs(undefined, 0), null);
  t.equal(retryAfterMs('soon', 0), null);
  t.equal(retryAfterMs(new Date(60_000).toUTCString(), 0), 60_000);
  t.equal(retryAfterMs('999999999', 0), 86_400_000, 'capped at a day');
  // No wait asked for, or a value that is no wait: the schedule applies (null), else a receiver
  // answering 503 Retry-After: 0 (or -5, or a past date) had all ten attempts spent in a second
  // and its endpoint disabled.
  t.equal(retryAfterMs('0', 0), null, 'Retry-After: 0');
  t.equal(retryAfterMs('-5', 1_800_000_000_000), null, 'a negative number (Date.parse reads it as 2001)');
  t.equal(retryAfterMs('1.5', 1_800_000_000_000), null, 'a decimal (Date.parse reads it as a date)');
  t.equal(retryAfterMs('+5', 1_800_000_000_000), null);
  t.equal(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', 1_800_000_000_000), null, 'a date in the past');
  t.equal(retryAfterMs(new Date(1_000).toUTCString(), 1_000), null, 'now');
});
