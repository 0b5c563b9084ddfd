-- AlterTable
ALTER TABLE "games" ADD COLUMN     "clock_rev" INTEGER NOT NULL DEFAULT 0;

