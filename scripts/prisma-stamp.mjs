// The staleness rule of the generated Prisma client, shared by
// scripts/prisma.ts (writes the stamp after `generate`) and
// scripts/generate-if-stale.mjs (npm start / npm test): plain JavaScript, so
// the check runs on node alone, without starting tsx.
//
// src/generated/prisma is up to date when its stamp holds the hash of the
// schema and of package-lock.json (the Prisma version that generated it).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = path.join(root, 'src', 'generated', 'prisma', '.schema-stamp');

/** The stamp the current schema and lockfile call for. */
function schemaStamp() {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(root, 'prisma', 'schema.prisma')));
  hash.update(readFileSync(path.join(root, 'package-lock.json')));
  return hash.digest('hex');
}

/** Whether src/generated/prisma was generated from the current schema by the current Prisma. */
export function isUpToDate() {
  let stamp;
  try {
    stamp = readFileSync(STAMP, 'utf8').trim();
  } catch {
    return false;
  }
  return stamp === schemaStamp();
}

/** Records that src/generated/prisma now matches the schema and lockfile. */
export function writeStamp() {
  writeFileSync(STAMP, `${schemaStamp()}\n`);
}
