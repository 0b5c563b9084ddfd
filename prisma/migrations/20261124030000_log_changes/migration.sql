-- The game log leaves the engine state: each log entry row keeps the change
-- its version made to the log ({"from": n, "entries": [...]}, engine
-- logChange) and the log is their fold. A state no longer grows with the game.

-- AlterTable
ALTER TABLE "actions" ADD COLUMN "log" JSONB;

-- Games stored before: their state holds the whole log. As a change that is
-- "the whole log from line 0", kept on the newest log row of the game, so that the
-- fold of the rows is the log. The state's log then starts at line 0.
UPDATE "actions" AS a SET "log" = jsonb_build_object('from', 0, 'entries', g."state"->'log')
FROM "games" AS g
WHERE a."game_id" = g."id" AND a."seq" = g."version" AND g."game_type" = 'richard-iii'
  AND jsonb_typeof(g."state") = 'object' AND jsonb_typeof(g."state"->'log') = 'array' AND NOT (g."state" ? 'logFrom');

UPDATE "games" SET "state" = jsonb_set("state", '{logFrom}', '0')
WHERE "game_type" = 'richard-iii' AND jsonb_typeof("state") = 'object' AND NOT ("state" ? 'logFrom');
