// Random secrets (API keys, invite codes, seeds) and their stored hashes.
// Keys carry 192 random bits, so a single SHA-256 is enough to store them: a
// slow password hash would only slow down every request.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'hk_';
/** Characters of a key kept in clear for support ("hk_" + 8). */
export const VISIBLE_PREFIX_LENGTH = KEY_PREFIX.length + 8;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = KEY_PREFIX + randomBytes(24).toString('base64url');
  return { key, prefix: key.slice(0, VISIBLE_PREFIX_LENGTH), hash: sha256(key) };
}

export function newInviteCode(): { code: string; hash: string } {
  const code = randomBytes(12).toString('base64url');
  return { code, hash: sha256(code) };
}

export function newSeed(): string {
  return randomBytes(16).toString('hex');
}

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(a: string, b: string): boolean {
  return sameDigest(a, secretDigest(b));
}

/** The digest sameDigest() compares with: a secret compared often has it computed once. */
export function secretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** sameSecret(a, b) given b's secretDigest(): constant-time. */
export function sameDigest(a: string, digest: Buffer): boolean {
  return timingSafeEqual(secretDigest(a), digest);
}
