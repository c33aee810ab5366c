-- The system log filtered by client and event type (its page and its capped count) reads this index instead
-- of scanning the table (docs/benchmarks.md, finding 29).
CREATE INDEX "system_logs_cliente_evento_idx" ON "system_logs" USING btree ("id_cliente","event_type","id");
