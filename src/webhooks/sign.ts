// Standard Webhooks v1 signatures with the `standardwebhooks` library (its own `verify` is what a
// receiver runs): HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`. During a secret
// rotation both secrets sign, space separated, so a receiver with either secret accepts.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The webhook-signature header value: one `v1,<base64>` per secret. */
export function signatureHeader(secrets: string[], msgId: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(' ');
}
