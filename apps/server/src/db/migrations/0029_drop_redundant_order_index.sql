-- (id_cliente, transaction_date) is the prefix of orders_cliente_date_id_idx (and of the dashboard's
-- covering index): every query that read this index reads those as well, and each order written kept one
-- index more (docs/benchmarks.md, finding 31).
DROP INDEX IF EXISTS "orders_cliente_date_idx";
