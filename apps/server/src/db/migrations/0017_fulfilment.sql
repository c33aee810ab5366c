CREATE SEQUENCE "public"."surtido_lote_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "surtido_estatus" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "guia" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "nota_recepcion" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "exportado_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "exportado_por" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lote_exportacion" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_exportado_por_users_id_fk" FOREIGN KEY ("exportado_por") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Orders approved before fulfilment existed wait to be fulfilled.
UPDATE "orders" SET "surtido_estatus" = 'por_surtir' WHERE "status" = 'aprobado';--> statement-breakpoint
CREATE INDEX "orders_aprobados_fecha_idx" ON "orders" USING btree ("transaction_date","id") WHERE "orders"."surtido_estatus" is not null;--> statement-breakpoint
CREATE INDEX "orders_surtido_idx" ON "orders" USING btree ("surtido_estatus","transaction_date","id") WHERE "orders"."surtido_estatus" is not null;--> statement-breakpoint
CREATE INDEX "orders_cliente_surtido_idx" ON "orders" USING btree ("id_cliente","surtido_estatus","transaction_date","id") WHERE "orders"."surtido_estatus" is not null;--> statement-breakpoint
CREATE INDEX "orders_surtido_pendiente_exportar_idx" ON "orders" USING btree ("transaction_date","id") WHERE "orders"."surtido_estatus" is not null and "orders"."exportado_at" is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_surtido_estatus" CHECK ("orders"."surtido_estatus" in ('por_surtir', 'en_surtido', 'enviado', 'entregado'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_surtido_aprobado" CHECK (("orders"."status" = 'aprobado') = ("orders"."surtido_estatus" is not null));