-- AlterTable
ALTER TABLE "vacations" ADD COLUMN     "clocks_resumed_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "vacations_clocks_resumed_at_idx" ON "vacations"("clocks_resumed_at");


-- Uses that ended before this column existed had their clocks resumed then.
UPDATE "vacations" SET "clocks_resumed_at" = "ended_at" WHERE "ended_at" IS NOT NULL;
