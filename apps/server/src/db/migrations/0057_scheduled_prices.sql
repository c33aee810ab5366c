CREATE TABLE "scheduled_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"id_cliente" integer NOT NULL,
	"precio" bigint NOT NULL,
	"vigente_desde" date NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"precio_anterior" bigint,
	CONSTRAINT "scheduled_prices_precio_min" CHECK ("scheduled_prices"."precio" >= 0)
);
--> statement-breakpoint
ALTER TABLE "scheduled_prices" ADD CONSTRAINT "scheduled_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_prices" ADD CONSTRAINT "scheduled_prices_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_prices" ADD CONSTRAINT "scheduled_prices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_prices_pending_unique" ON "scheduled_prices" USING btree ("product_id") WHERE "scheduled_prices"."applied_at" is null;--> statement-breakpoint
CREATE INDEX "scheduled_prices_due_idx" ON "scheduled_prices" USING btree ("vigente_desde","id") WHERE "scheduled_prices"."applied_at" is null;--> statement-breakpoint
CREATE INDEX "scheduled_prices_applied_idx" ON "scheduled_prices" USING btree ("applied_at") WHERE "scheduled_prices"."applied_at" is not null;