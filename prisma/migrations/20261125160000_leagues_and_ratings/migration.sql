-- CreateEnum
CREATE TYPE "league_status" AS ENUM ('registration', 'running', 'finished');

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "rated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "settled_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "ratings" (
    "player_id" UUID NOT NULL,
    "game_type" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "rd" DOUBLE PRECISION NOT NULL,
    "vol" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "draws" INTEGER NOT NULL DEFAULT 0,
    "losses" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ratings_pkey" PRIMARY KEY ("player_id","game_type")
);

-- CreateTable
CREATE TABLE "rating_changes" (
    "game_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "game_type" TEXT NOT NULL,
    "opponent_id" UUID NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "rating_before" DOUBLE PRECISION NOT NULL,
    "rd_before" DOUBLE PRECISION NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "rd" DOUBLE PRECISION NOT NULL,
    "vol" DOUBLE PRECISION NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rating_changes_pkey" PRIMARY KEY ("game_id","player_id")
);

-- CreateTable
CREATE TABLE "leagues" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "visibility" TEXT NOT NULL DEFAULT 'public',
    "game_type" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "settings" JSONB NOT NULL,
    "status" "league_status" NOT NULL DEFAULT 'registration',
    "seed" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_by_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "leagues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "league_organisers" (
    "league_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "league_organisers_pkey" PRIMARY KEY ("league_id","player_id")
);

-- CreateTable
CREATE TABLE "league_entrants" (
    "league_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "seed" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'active',
    "first_round" INTEGER NOT NULL DEFAULT 1,
    "left_after_round" INTEGER,
    "reason" TEXT,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "league_entrants_pkey" PRIMARY KEY ("league_id","player_id")
);

-- CreateTable
CREATE TABLE "league_rounds" (
    "league_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "stage" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "league_rounds_pkey" PRIMARY KEY ("league_id","number")
);

-- CreateTable
CREATE TABLE "league_pairings" (
    "id" UUID NOT NULL,
    "league_id" UUID NOT NULL,
    "round" INTEGER NOT NULL,
    "board" INTEGER NOT NULL,
    "pool" INTEGER,
    "first_id" UUID NOT NULL,
    "second_id" UUID,
    "game_id" UUID,
    "result" TEXT,
    "source" TEXT,
    "report" JSONB,

    CONSTRAINT "league_pairings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "league_result_changes" (
    "id" UUID NOT NULL,
    "league_id" UUID NOT NULL,
    "pairing_id" UUID NOT NULL,
    "by_id" UUID,
    "kind" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT,
    "reason" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "league_result_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ratings_game_type_rating_idx" ON "ratings"("game_type", "rating");

-- CreateIndex
CREATE INDEX "rating_changes_player_id_game_type_at_idx" ON "rating_changes"("player_id", "game_type", "at");

-- CreateIndex
CREATE INDEX "leagues_visibility_status_created_at_idx" ON "leagues"("visibility", "status", "created_at");

-- CreateIndex
CREATE INDEX "league_organisers_player_id_idx" ON "league_organisers"("player_id");

-- CreateIndex
CREATE INDEX "league_entrants_player_id_idx" ON "league_entrants"("player_id");

-- CreateIndex
CREATE UNIQUE INDEX "league_pairings_game_id_key" ON "league_pairings"("game_id");

-- CreateIndex
CREATE INDEX "league_pairings_league_id_first_id_idx" ON "league_pairings"("league_id", "first_id");

-- CreateIndex
CREATE INDEX "league_pairings_league_id_second_id_idx" ON "league_pairings"("league_id", "second_id");

-- CreateIndex
CREATE UNIQUE INDEX "league_pairings_league_id_round_board_key" ON "league_pairings"("league_id", "round", "board");

-- CreateIndex
CREATE INDEX "league_result_changes_league_id_at_idx" ON "league_result_changes"("league_id", "at");

-- CreateIndex
CREATE INDEX "league_result_changes_pairing_id_idx" ON "league_result_changes"("pairing_id");

-- CreateIndex
CREATE INDEX "games_status_settled_at_idx" ON "games"("status", "settled_at");

-- AddForeignKey
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leagues" ADD CONSTRAINT "leagues_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "league_organisers" ADD CONSTRAINT "league_organisers_league_id_fkey" FOREIGN KEY ("league_id") REFERENCES "leagues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "league_organisers" ADD CONSTRAINT "league_organisers_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "league_entrants" ADD CONSTRAINT "league_entrants_league_id_fkey" FOREIGN KEY ("league_id") REFERENCES "leagues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "league_entrants" ADD CONSTRAINT "league_entrants_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "league_rounds" ADD CONSTRAINT "league_rounds_league_id_fkey" FOREIGN KEY ("league_id") REFERENCES "leagues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "league_pairings" ADD CONSTRAINT "league_pairings_league_id_fkey" FOREIGN KEY ("league_id") REFERENCES "leagues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "league_pairings" ADD CONSTRAINT "league_pairings_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "league_result_changes" ADD CONSTRAINT "league_result_changes_league_id_fkey" FOREIGN KEY ("league_id") REFERENCES "leagues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

