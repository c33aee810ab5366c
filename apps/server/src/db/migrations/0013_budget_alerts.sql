CREATE TABLE "budget_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"category_id" integer,
	"mes" text NOT NULL,
	"umbral" smallint NOT NULL,
	"porcentaje" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_alerts_once" UNIQUE NULLS NOT DISTINCT("user_id","category_id","mes","umbral")
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "alertas_presupuesto" integer[] DEFAULT '{80,100}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "avisar_autorizadores" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_alertas_presupuesto_range" CHECK (cardinality("clients"."alertas_presupuesto") between 1 and 3 and 1 <= all("clients"."alertas_presupuesto") and 100 >= all("clients"."alertas_presupuesto"));