-- CreateTable
CREATE TABLE "vacations" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_by" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "league_ends_by" TIMESTAMPTZ(3),

    CONSTRAINT "vacations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "vacations_player_id_started_at_idx" ON "vacations"("player_id", "started_at");

-- CreateIndex
CREATE INDEX "vacations_ends_by_idx" ON "vacations"("ends_by");

-- CreateIndex
CREATE INDEX "vacations_league_ends_by_idx" ON "vacations"("league_ends_by");

-- AddForeignKey
ALTER TABLE "vacations" ADD CONSTRAINT "vacations_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

