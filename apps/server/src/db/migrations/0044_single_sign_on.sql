CREATE TABLE "client_sso" (
	"id_cliente" integer PRIMARY KEY NOT NULL,
	"emisor" text NOT NULL,
	"id_cliente_oidc" text NOT NULL,
	"secreto_cifrado" text NOT NULL,
	"dominios" text[] NOT NULL,
	"obligatorio" boolean DEFAULT false NOT NULL,
	"alta_automatica" boolean DEFAULT false NOT NULL,
	"activo" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_sso_dominios_count" CHECK (cardinality("client_sso"."dominios") between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "client_sso_domains" (
	"dominio" text PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_logins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"state_hash" text NOT NULL,
	"session_id" text NOT NULL,
	"id_cliente" integer NOT NULL,
	"correo" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "client_sso" ADD CONSTRAINT "client_sso_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_sso_domains" ADD CONSTRAINT "client_sso_domains_id_cliente_client_sso_id_cliente_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."client_sso"("id_cliente") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_logins" ADD CONSTRAINT "sso_logins_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_sso_domains_cliente_idx" ON "client_sso_domains" USING btree ("id_cliente");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_logins_state_unique" ON "sso_logins" USING btree ("state_hash");--> statement-breakpoint
CREATE INDEX "sso_logins_created_idx" ON "sso_logins" USING btree ("created_at");