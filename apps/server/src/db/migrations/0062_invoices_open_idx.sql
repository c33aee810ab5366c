-- A client's open invoices (type I with a saldo), which every final approval sums for the credit check and
-- the approver's view and the statement read (decision 0134): without it the check read every CFDI of the
-- client by (id_cliente, id) to keep the open ones (finding 47). Partial (an invoice leaves it when paid) and
-- covering (the day and the saldo): the sums read the index alone. Written by hand: the schema builder has no
-- INCLUDE.
CREATE INDEX IF NOT EXISTS "invoices_open_idx" ON "invoices" ("id_cliente") INCLUDE ("fecha", "saldo")
  WHERE "tipo" = 'I' AND "saldo" > 0;
