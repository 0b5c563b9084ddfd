-- A league stand-in now ends when its entrant withdraws or is disqualified (the
-- entrant's open boards are forfeit and they are never seated again). Before, the
-- stand-in stayed set on such an entrant: clear it, as leaving now does.
-- Schema unchanged.
UPDATE "league_entrants"
SET "stand_in_level" = NULL, "stand_in_from_round" = NULL, "stand_in_reason" = NULL, "stand_in_at" = NULL
WHERE "status" <> 'active'
  AND ("stand_in_level" IS NOT NULL OR "stand_in_from_round" IS NOT NULL OR "stand_in_reason" IS NOT NULL OR "stand_in_at" IS NOT NULL);
