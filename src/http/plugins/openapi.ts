// The REST API's description: openapi.yaml (kept by hand, checked by
// test/http/openapi.test.ts against the registered routes) served as is at
// /openapi.yaml, and browsable with Swagger UI at /docs (assets served locally).
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { parse } from 'yaml';
import { projectRoot } from '../../paths.ts';
import path from 'node:path';

export const OPENAPI_PATH = path.join(projectRoot, 'openapi.yaml');

export async function loadOpenApiDocument(): Promise<{ text: string; document: Record<string, unknown> }> {
  const text = await readFile(OPENAPI_PATH, 'utf8');
  return { text, document: parse(text) as Record<string, unknown> };
}

export default async function openapi(app: FastifyInstance): Promise<void> {
  const { text, document } = await loadOpenApiDocument();

  app.get('/openapi.yaml', async (_request, reply) => reply.type('application/yaml; charset=utf-8').send(text));

  await app.register(swagger, {
    mode: 'static',
    // The document's shape is checked by test/http/openapi.test.ts, not by the type system.
    specification: { document: document as never },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
