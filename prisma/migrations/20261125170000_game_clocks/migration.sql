-- AlterTable
ALTER TABLE "games" ADD COLUMN     "clocks" JSONB,
ADD COLUMN     "deadline_at" TIMESTAMPTZ(3),
ADD COLUMN     "time_control" JSONB;

-- CreateIndex
CREATE INDEX "games_status_deadline_at_idx" ON "games"("status", "deadline_at");

