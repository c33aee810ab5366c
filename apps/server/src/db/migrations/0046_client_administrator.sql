CREATE TABLE "budget_change_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"user_id" integer NOT NULL,
	"presupuesto" bigint NOT NULL,
	"presupuesto_anterior" bigint NOT NULL,
	"categorias" jsonb,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"requested_by" integer NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_change_requests_estado" CHECK ("budget_change_requests"."estado" in ('pendiente', 'aprobada', 'rechazada', 'reemplazada')),
	CONSTRAINT "budget_change_requests_presupuesto_min" CHECK ("budget_change_requests"."presupuesto" >= 0)
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_rol_range";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "permisos_cliente" text[] DEFAULT '{usuarios}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "tope_presupuesto" bigint;--> statement-breakpoint
ALTER TABLE "budget_change_requests" ADD CONSTRAINT "budget_change_requests_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_change_requests" ADD CONSTRAINT "budget_change_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_change_requests" ADD CONSTRAINT "budget_change_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_change_requests" ADD CONSTRAINT "budget_change_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "budget_change_requests_pending_unique" ON "budget_change_requests" USING btree ("user_id") WHERE "budget_change_requests"."estado" = 'pendiente';--> statement-breakpoint
CREATE INDEX "budget_change_requests_pending_idx" ON "budget_change_requests" USING btree ("created_at","id") WHERE "budget_change_requests"."estado" = 'pendiente';--> statement-breakpoint
CREATE INDEX "budget_change_requests_cliente_idx" ON "budget_change_requests" USING btree ("id_cliente","id");--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_tope_presupuesto_min" CHECK ("clients"."tope_presupuesto" >= 0);--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_permisos_cliente_known" CHECK ("clients"."permisos_cliente" <@ '{usuarios,presupuestos,asignaciones,semanas,reglas}'::text[]);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_rol_range" CHECK ("users"."rol" between 1 and 5);