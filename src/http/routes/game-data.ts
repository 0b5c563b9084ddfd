// A game type's data for clients that draw their own board: an index (short
// cache, revalidated by ETag) pointing to one URL per file whose path holds the
// file's content hash, so a file URL is cached for ever (immutable).
import type { FastifyInstance } from 'fastify';
import { sendCached, strongEtag } from '../conditional.ts';
import { gameDataIndex, IMMUTABLE, INDEX_MAX_AGE } from '../game-data.ts';
import { ServiceError } from '../../service/api.ts';

type IndexParams = { Params: { gameType: string } };
type FileParams = { Params: { gameType: string; hash: string; file: string } };

const JSON_TYPE = 'application/json; charset=utf-8';

export default async function gameDataRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.gameService;
  /** The index's text, built once per set (sets live as long as the process). */
  const indexText = new WeakMap<object, string>();

  app.get<IndexParams>('/game-types/:gameType/data', async (request, reply) => {
    const set = svc.getGameData(request.params.gameType);
    let body = indexText.get(set);
    if (body === undefined) indexText.set(set, (body = JSON.stringify(gameDataIndex(set))));
    return sendCached(request, reply, { etag: strongEtag(set.version), cacheControl: INDEX_MAX_AGE, contentType: JSON_TYPE, body });
  });

  app.get<FileParams>('/game-types/:gameType/data/:hash/:file', async (request, reply) => {
    const { gameType, hash, file } = request.params;
    if (!file.endsWith('.json')) throw new ServiceError('not_found', `No data file ${file}: the files are JSON (name.json).`);
    const f = svc.getGameDataFile(gameType, hash, file.slice(0, -'.json'.length));
    return sendCached(request, reply, { etag: strongEtag(f.hash), cacheControl: IMMUTABLE, contentType: JSON_TYPE, body: f.body });
  });
}
