ALTER TABLE "invoices" ADD COLUMN "verificacion_sat" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cotejo" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cotejo_diferencias" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cotejo_facturado" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cotejo_exceso" bigint;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cotejo_motivo" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cotejo_nota_credito_id" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cotejo_resuelto_por" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cotejo_resuelto_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_cotejo_nota_credito_id_invoices_id_fk" FOREIGN KEY ("cotejo_nota_credito_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_cotejo_resuelto_por_users_id_fk" FOREIGN KEY ("cotejo_resuelto_por") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_cotejo" CHECK ("invoices"."cotejo" is null or ("invoices"."tipo" = 'I' and "invoices"."cotejo" in ('conciliada', 'con_diferencias', 'diferencia_aceptada')));