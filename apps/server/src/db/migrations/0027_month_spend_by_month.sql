-- A month's running figures of many buyers at once (the dashboard's buyers of a client, the administrator's
-- clients near their budget) read this index alone instead of scanning every month of every buyer: 29 ms
-- against 5 ms for the 3,000 buyers of a client (docs/benchmarks.md, finding 30). Written by hand because
-- the schema builder has no INCLUDE.
CREATE INDEX IF NOT EXISTS "user_month_spend_mes_cover_idx" ON "user_month_spend" ("mes", "id_categoria", "id_user") INCLUDE ("importe", "compras");
