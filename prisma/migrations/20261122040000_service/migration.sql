-- CreateEnum
CREATE TYPE "visibility" AS ENUM ('public', 'private');

-- CreateEnum
CREATE TYPE "player_kind" AS ENUM ('player', 'app');

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "active_roles" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "auto_start" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "created_by_id" UUID,
ADD COLUMN     "options" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "result" JSONB,
ADD COLUMN     "seed" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "state" JSONB,
ADD COLUMN     "visibility" "visibility" NOT NULL DEFAULT 'public';

-- CreateTable
CREATE TABLE "players" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "player_kind" NOT NULL DEFAULT 'player',
    "is_bot" BOOLEAN NOT NULL DEFAULT false,
    "external_id" TEXT,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "seats" (
    "game_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "player_id" UUID,
    "invite_code_hash" TEXT,

    CONSTRAINT "seats_pkey" PRIMARY KEY ("game_id","role")
);

-- CreateTable
CREATE TABLE "actions" (
    "game_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "role" TEXT,
    "player_id" UUID,
    "action" JSONB,
    "idempotency_key" TEXT,
    "status" "game_status" NOT NULL,
    "active_roles" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "actions_pkey" PRIMARY KEY ("game_id","seq")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "game_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("game_id","player_id","key")
);

-- CreateIndex
CREATE UNIQUE INDEX "players_created_by_id_external_id_key" ON "players"("created_by_id", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_player_id_idx" ON "api_keys"("player_id");

-- CreateIndex
CREATE INDEX "seats_player_id_idx" ON "seats"("player_id");

-- CreateIndex
CREATE UNIQUE INDEX "actions_game_id_player_id_idempotency_key_key" ON "actions"("game_id", "player_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "games_created_at_id_idx" ON "games"("created_at", "id");

-- AddForeignKey
ALTER TABLE "players" ADD CONSTRAINT "players_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seats" ADD CONSTRAINT "seats_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seats" ADD CONSTRAINT "seats_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "actions" ADD CONSTRAINT "actions_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

