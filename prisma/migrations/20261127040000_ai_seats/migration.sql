-- AlterTable
ALTER TABLE "players" ADD COLUMN     "ai_level" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "players_ai_level_key" ON "players"("ai_level");

