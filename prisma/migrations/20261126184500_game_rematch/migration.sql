-- AlterTable
ALTER TABLE "games" ADD COLUMN     "rematch_id" UUID;

