ALTER TABLE "clients" DROP CONSTRAINT "clients_permisos_cliente_known";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "rfc" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "razon_social" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "regimen_fiscal" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "uso_cfdi" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "cp_fiscal" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "correos_facturacion" text[];--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_rfc_forma" CHECK ("clients"."rfc" ~ '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{2}[A0-9]$');--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_razon_social_largo" CHECK (char_length("clients"."razon_social") between 1 and 254);--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_regimen_fiscal_forma" CHECK ("clients"."regimen_fiscal" ~ '^[0-9]{3}$');--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_uso_cfdi_forma" CHECK ("clients"."uso_cfdi" ~ '^[A-Z]{1,2}[0-9]{2}$');--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_cp_fiscal_forma" CHECK ("clients"."cp_fiscal" ~ '^[0-9]{5}$');--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_correos_facturacion_cantidad" CHECK (cardinality("clients"."correos_facturacion") between 1 and 5);--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_permisos_cliente_known" CHECK ("clients"."permisos_cliente" <@ '{usuarios,presupuestos,asignaciones,semanas,reglas,identidad,fiscales}'::text[]);