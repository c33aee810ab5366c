CREATE INDEX "orders_cliente_date_id_idx" ON "orders" USING btree ("id_cliente","transaction_date","id");--> statement-breakpoint
CREATE INDEX "orders_cliente_status_date_idx" ON "orders" USING btree ("id_cliente","status","transaction_date","id");--> statement-breakpoint
CREATE INDEX "orders_cliente_status_total_idx" ON "orders" USING btree ("id_cliente","status","total","id");