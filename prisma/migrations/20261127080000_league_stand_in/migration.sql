-- AlterTable
ALTER TABLE "league_entrants" ADD COLUMN     "stand_in_at" TIMESTAMPTZ(3),
ADD COLUMN     "stand_in_from_round" INTEGER,
ADD COLUMN     "stand_in_level" TEXT,
ADD COLUMN     "stand_in_reason" TEXT;

