ALTER TABLE "clients" ADD COLUMN "aprobacion_automatica_hasta" bigint;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "segundo_nivel_desde" bigint;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_regla_automatica_min" CHECK ("clients"."aprobacion_automatica_hasta" >= 0);--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_regla_segundo_nivel_min" CHECK ("clients"."segundo_nivel_desde" >= 0);