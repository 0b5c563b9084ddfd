-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "game_status" AS ENUM ('setup', 'active', 'finished', 'abandoned');

-- CreateTable
CREATE TABLE "games" (
    "id" UUID NOT NULL,
    "game_type" TEXT NOT NULL,
    "scenario" TEXT NOT NULL,
    "status" "game_status" NOT NULL DEFAULT 'setup',
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "games_game_type_status_idx" ON "games"("game_type", "status");

