-- Black & White's rule option noWinPossible (default "draw": a game no army
-- can win any more ends at once as a draw) did not exist before: games stored
-- so far played on in such a position. Their resolved options lack the key,
-- and a replay (earlier versions, pictures, exported records) would fill in
-- the new default and end the game where it went on. They get "play-on", the
-- rule they were played under, in their options and in their engine state.
UPDATE "games"
SET "options" = "options" || '{"noWinPossible": "play-on"}'::jsonb,
    "state" = CASE
      WHEN jsonb_typeof("state" -> 'options') = 'object' THEN jsonb_set("state", '{options,noWinPossible}', '"play-on"'::jsonb)
      ELSE "state"
    END
WHERE "game_type" = 'black-and-white' AND NOT ("options" ? 'noWinPossible');
