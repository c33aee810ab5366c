ALTER TABLE "system_logs" ADD COLUMN "id_cliente" integer;--> statement-breakpoint
ALTER TABLE "system_logs" ADD COLUMN "id_pedido" integer;--> statement-breakpoint
-- Earlier entries: the order and the client their metadata names, else the acting user's client.
UPDATE "system_logs" SET
  "id_pedido" = CASE WHEN "metadata"->>'id_pedido' ~ '^[0-9]{1,9}$' THEN ("metadata"->>'id_pedido')::integer END,
  "id_cliente" = COALESCE(
    CASE WHEN "metadata"->>'id_cliente' ~ '^[0-9]{1,9}$' THEN ("metadata"->>'id_cliente')::integer END,
    (SELECT "users"."id_cliente" FROM "users" WHERE "users"."id" = "system_logs"."user_id")
  );--> statement-breakpoint
-- Entries about an order belong to the order's client when nothing else named one.
UPDATE "system_logs" SET "id_cliente" = "orders"."id_cliente"
  FROM "orders" WHERE "orders"."id" = "system_logs"."id_pedido" AND "system_logs"."id_cliente" IS NULL;--> statement-breakpoint
CREATE INDEX "orders_status_date_idx" ON "orders" USING btree ("status","transaction_date","id");--> statement-breakpoint
CREATE INDEX "system_logs_cliente_idx" ON "system_logs" USING btree ("id_cliente","id");--> statement-breakpoint
CREATE INDEX "system_logs_pedido_idx" ON "system_logs" USING btree ("id_pedido","id");