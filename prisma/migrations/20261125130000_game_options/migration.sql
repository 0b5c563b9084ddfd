-- Game options are checked against their scenario's declaration from now on,
-- and Richard III reads one (endCampaign). Before, the engine read no option:
-- every game stored so far was played with the defaults whatever its options
-- said ({"endCampaign": 99} was stored and ignored). Those options are cleared
-- so that replaying a stored game (earlier versions, exported records) gives
-- the game that was played, and the engine never sees options it would refuse.
UPDATE "games" SET "options" = '{}'::jsonb WHERE "options" IS DISTINCT FROM '{}'::jsonb;
