// Webhook delivery mechanics, apart from the database: the SSRF guard, Standard Webhooks
// signatures, the retry schedule and one HTTP POST. The service (service/webhooks.ts) decides
// what to send and records what happened.
export { checkedAddress, isPublicAddress, parseWebhookUrl, UnsafeUrl, type CheckedAddress } from './guard.ts';
export { newSecret, signatureHeader } from './sign.ts';
export { retryAfterMs, retryDelay, RETRY_SCHEDULE_MS } from './backoff.ts';
export { post, type SendResult } from './send.ts';
