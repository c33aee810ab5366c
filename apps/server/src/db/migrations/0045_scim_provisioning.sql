CREATE TABLE "scim_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"token_hash" text NOT NULL,
	"prefijo" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"ultimo_uso" timestamp with time zone,
	"revocado_en" timestamp with time zone,
	"ventana_inicio" timestamp with time zone,
	"ventana_usos" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "scim_external_id" text;--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_hash_unique" ON "scim_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_live_unique" ON "scim_tokens" USING btree ("id_cliente") WHERE "scim_tokens"."revocado_en" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_scim_external_unique" ON "users" USING btree ("id_cliente","scim_external_id");