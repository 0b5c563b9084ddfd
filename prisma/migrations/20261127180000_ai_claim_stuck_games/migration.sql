-- Until Herald's AI claimed a win on time at once (onTimeout "claim"), a human who
-- ran out against it left the game active for ever: the clock sweep told the AI it
-- could claim (a "timeout:<role>:<at>" key in reminders_sent) and took the game out of
-- the sweep (deadline_at moved past the flagged seat, often to null). Such games get
-- their earliest seat deadline back in deadline_at, as a clock change writes it: the
-- sweep looks at them again and, where the AI may claim, ends them as its claim (the
-- flagged seat loses on time), and where it may not, it only moves deadline_at on again.
-- Schema unchanged.
UPDATE "games" AS g
SET "deadline_at" = to_timestamp(d."earliest" / 1000.0)
FROM (
  SELECT g2."id", min(floor((s.value ->> 'deadline')::numeric)::bigint) AS "earliest"
  FROM "games" AS g2, jsonb_each(g2."clocks" -> 'seats') AS s
  WHERE g2."status" = 'active'
    AND jsonb_typeof(g2."clocks" -> 'seats') = 'object'
    AND jsonb_typeof(s.value -> 'deadline') = 'number'
  GROUP BY g2."id"
) AS d
WHERE g."id" = d."id"
  AND g."status" = 'active'
  AND EXISTS (SELECT 1 FROM unnest(g."reminders_sent") AS k WHERE k LIKE 'timeout:%')
  AND EXISTS (SELECT 1 FROM "seats" AS st JOIN "players" AS p ON p."id" = st."player_id" WHERE st."game_id" = g."id" AND p."ai_level" IS NOT NULL)
  AND (g."deadline_at" IS NULL OR g."deadline_at" > to_timestamp(d."earliest" / 1000.0));
