-- AlterTable
ALTER TABLE "games" ADD COLUMN     "remind_at" TIMESTAMPTZ(3),
ADD COLUMN     "reminders_sent" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "games_status_remind_at_idx" ON "games"("status", "remind_at");

