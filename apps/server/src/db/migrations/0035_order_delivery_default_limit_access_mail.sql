ALTER TABLE "clients" ADD COLUMN "limite_por_defecto" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "tipo" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paqueteria" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "entrega" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_limite_por_defecto_min" CHECK ("clients"."limite_por_defecto" >= 1);--> statement-breakpoint
-- Orders placed before the delivery address was copied at purchase get their buyer's address as it is
-- today, the nearest known to the day they were placed (issue 37).
UPDATE "orders" o SET "entrega" = jsonb_build_object(
  'direccion_entrega', u."direccion_entrega", 'calle', u."calle", 'colonia', u."colonia",
  'ciudad', u."ciudad", 'estado', u."estado", 'cp', u."cp")
FROM "users" u WHERE u."id" = o."id_user";
--> statement-breakpoint
-- Welcome links already in the outbox are access e-mails.
UPDATE "email_outbox" SET "tipo" = 'acceso' WHERE "subject" = 'Bienvenido al Portal de Compras';
