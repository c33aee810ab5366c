CREATE TABLE "api_idempotency_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_id" integer NOT NULL,
	"clave" text NOT NULL,
	"huella" text NOT NULL,
	"status_code" integer NOT NULL,
	"respuesta" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "permitir_sobre_pedido" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "umbral_existencia" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "reservado" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "sobre_pedido" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "existencia" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "dias_entrega" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reservado" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD CONSTRAINT "api_idempotency_keys_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_idempotency_keys_token_clave_unique" ON "api_idempotency_keys" USING btree ("token_id","clave");--> statement-breakpoint
CREATE INDEX "api_idempotency_keys_created_idx" ON "api_idempotency_keys" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_umbral_existencia_range" CHECK ("clients"."umbral_existencia" between 0 and 1000000);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_existencia_min" CHECK ("products"."existencia" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_dias_entrega_range" CHECK ("products"."dias_entrega" between 0 and 3650);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reservado_min" CHECK ("products"."reservado" >= 0);