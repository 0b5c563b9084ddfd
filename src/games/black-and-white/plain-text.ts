/**
 * Log lines as plain English text (GameModule.logLine, used where no message
 * formatter is at hand): the `en` catalogue read once at load, placeholders
 * filled in. The service formats messages properly (ICU) through
 * logMessage; this is the fallback.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Message, MessageParam } from '../../engine/types.ts';

export const MESSAGES_DIR = fileURLToPath(new URL('./messages', import.meta.url));

const EN: Record<string, string> = {};
for (const f of readdirSync(path.join(MESSAGES_DIR, 'en')).filter((x) => x.endsWith('.json'))) {
  Object.assign(EN, JSON.parse(readFileSync(path.join(MESSAGES_DIR, 'en', f), 'utf8')) as Record<string, string>);
}

function param(p: MessageParam): string {
  if (typeof p === 'string' || typeof p === 'number') return String(p);
  if ('ref' in p) return EN[`${p.ref}.${p.id}`] ?? p.id;
  if ('list' in p) return p.list.map(param).join(', ');
  return plainText(p.msg);
}

export function plainText(m: Message): string {
  const template = EN[m.key] ?? m.key;
  return template.replace(/\{(\w+)\}/g, (_all, k: string) => (m.params && k in m.params ? param(m.params[k]!) : `{${k}}`));
}
