DROP INDEX "orders_user_date_idx";--> statement-breakpoint
CREATE INDEX "orders_user_total_idx" ON "orders" USING btree ("id_user","total","id");--> statement-breakpoint
CREATE INDEX "orders_status_total_idx" ON "orders" USING btree ("status","total","id");--> statement-breakpoint
CREATE INDEX "products_cliente_nombre_idx" ON "products" USING btree ("id_cliente","nombre","id");--> statement-breakpoint
CREATE INDEX "products_cliente_precio_idx" ON "products" USING btree ("id_cliente","precio","id");--> statement-breakpoint
CREATE INDEX "products_cliente_activo_asc_idx" ON "products" USING btree ("id_cliente","activo","nombre","id");--> statement-breakpoint
CREATE INDEX "products_cliente_activo_desc_idx" ON "products" USING btree ("id_cliente","activo" DESC NULLS FIRST,"nombre","id");--> statement-breakpoint
CREATE INDEX "products_categoria_nombre_idx" ON "products" USING btree ("id_categoria","nombre","id");--> statement-breakpoint
CREATE INDEX "orders_user_date_idx" ON "orders" USING btree ("id_user","transaction_date","id");