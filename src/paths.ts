import { fileURLToPath } from 'node:url';

/** The repository root (package.json, openapi.yaml, prisma/). */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
