CREATE TABLE "area_budget_alerts" (
	"id_area" integer NOT NULL,
	"mes" text NOT NULL,
	"umbral" smallint NOT NULL,
	"porcentaje" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "area_budget_alerts_id_area_mes_umbral_pk" PRIMARY KEY("id_area","mes","umbral")
);
--> statement-breakpoint
CREATE TABLE "area_month_spend" (
	"id_area" integer NOT NULL,
	"mes" date NOT NULL,
	"importe" bigint NOT NULL,
	"compras" integer NOT NULL,
	CONSTRAINT "area_month_spend_id_area_mes_pk" PRIMARY KEY("id_area","mes")
);
--> statement-breakpoint
CREATE TABLE "areas" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"nombre" text NOT NULL,
	"codigo" text NOT NULL,
	"cuenta_contable" text,
	"presupuesto" bigint NOT NULL,
	"id_responsable" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "areas_presupuesto_min" CHECK ("areas"."presupuesto" >= 0)
);
--> statement-breakpoint
CREATE TABLE "budget_adjustments" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"mes" date NOT NULL,
	"user_id" integer,
	"id_area" integer,
	"id_categoria" integer DEFAULT 0 NOT NULL,
	"importe" bigint NOT NULL,
	"tipo" text NOT NULL,
	"id_topup" integer,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_adjustments_tipo" CHECK ("budget_adjustments"."tipo" in ('ampliacion', 'transferencia')),
	CONSTRAINT "budget_adjustments_target" CHECK (("budget_adjustments"."user_id" is null) <> ("budget_adjustments"."id_area" is null))
);
--> statement-breakpoint
CREATE TABLE "budget_topups" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"user_id" integer NOT NULL,
	"id_area" integer,
	"id_categoria" integer,
	"mes" date NOT NULL,
	"importe" bigint NOT NULL,
	"motivo" text NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"respuesta" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_topups_estado" CHECK ("budget_topups"."estado" in ('pendiente', 'aprobada', 'rechazada')),
	CONSTRAINT "budget_topups_importe_min" CHECK ("budget_topups"."importe" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "id_area" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "id_area" integer;--> statement-breakpoint
ALTER TABLE "area_budget_alerts" ADD CONSTRAINT "area_budget_alerts_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "areas" ADD CONSTRAINT "areas_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "areas" ADD CONSTRAINT "areas_id_responsable_users_id_fk" FOREIGN KEY ("id_responsable") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_adjustments" ADD CONSTRAINT "budget_adjustments_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_adjustments" ADD CONSTRAINT "budget_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_adjustments" ADD CONSTRAINT "budget_adjustments_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_adjustments" ADD CONSTRAINT "budget_adjustments_id_topup_budget_topups_id_fk" FOREIGN KEY ("id_topup") REFERENCES "public"."budget_topups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_adjustments" ADD CONSTRAINT "budget_adjustments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_topups" ADD CONSTRAINT "budget_topups_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_topups" ADD CONSTRAINT "budget_topups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_topups" ADD CONSTRAINT "budget_topups_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_topups" ADD CONSTRAINT "budget_topups_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "areas_codigo_unique" ON "areas" USING btree ("id_cliente",lower("codigo"));--> statement-breakpoint
CREATE UNIQUE INDEX "areas_nombre_unique" ON "areas" USING btree ("id_cliente",lower("nombre"));--> statement-breakpoint
CREATE INDEX "budget_adjustments_user_idx" ON "budget_adjustments" USING btree ("user_id","mes") WHERE "budget_adjustments"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "budget_adjustments_area_idx" ON "budget_adjustments" USING btree ("id_area","mes") WHERE "budget_adjustments"."id_area" is not null;--> statement-breakpoint
CREATE INDEX "budget_topups_cliente_idx" ON "budget_topups" USING btree ("id_cliente","estado","id");--> statement-breakpoint
CREATE INDEX "budget_topups_user_idx" ON "budget_topups" USING btree ("user_id","id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_area_idx" ON "orders" USING btree ("id_area","transaction_date") WHERE "orders"."id_area" is not null;--> statement-breakpoint
CREATE INDEX "users_area_idx" ON "users" USING btree ("id_area") WHERE "users"."id_area" is not null;