-- A client's open invoices (type I with a saldo) by date (decision 0138): the final approval's credit check
-- and the statement's summary sum them per day, and the statement lists them oldest first a page at a time.
-- Replaces invoices_open_idx (migration 0062, on id_cliente alone, which served the sums but had to read
-- and sort every open invoice of the client for a page). Partial (an invoice leaves it when paid), ordered
-- as the statement lists them, and covering the saldo: the sums and the page's ids read the index alone.
-- Written by hand: the schema builder has no INCLUDE.
CREATE INDEX IF NOT EXISTS "invoices_open_fecha_idx" ON "invoices" ("id_cliente", "fecha", "id") INCLUDE ("saldo")
  WHERE "tipo" = 'I' AND "saldo" > 0;
--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_open_idx";
