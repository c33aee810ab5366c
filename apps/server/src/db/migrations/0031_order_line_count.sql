-- Each order's number of lines, stored with the order (docs/benchmarks.md, finding 33): the order lists
-- read it instead of counting every row's lines. Filled from the lines of the orders that exist; then
-- required, with no default, so a writer that forgets it fails instead of storing a wrong count.
ALTER TABLE "orders" ADD COLUMN "lineas" integer;--> statement-breakpoint
UPDATE "orders" o SET "lineas" = coalesce((SELECT count(*) FROM "order_lines" l WHERE l.order_id = o.id), 0);--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "lineas" SET NOT NULL;
