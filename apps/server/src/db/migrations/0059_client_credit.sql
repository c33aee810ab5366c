ALTER TABLE "clients" ADD COLUMN "limite_credito" bigint;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "dias_credito" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "politica_credito" text DEFAULT 'avisar' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "retenido_credito" text;--> statement-breakpoint
CREATE INDEX "orders_retenido_credito_idx" ON "orders" USING btree ("id_cliente","id") WHERE "orders"."retenido_credito" is not null;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_limite_credito_min" CHECK ("clients"."limite_credito" >= 0);--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_dias_credito_range" CHECK ("clients"."dias_credito" between 0 and 365);--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_politica_credito" CHECK ("clients"."politica_credito" in ('avisar', 'retener'));