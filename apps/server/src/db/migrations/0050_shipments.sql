CREATE TABLE "late_line_digests" (
	"user_id" integer NOT NULL,
	"fecha" date NOT NULL,
	"lineas" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "late_line_digests_user_id_fecha_pk" PRIMARY KEY("user_id","fecha")
);
--> statement-breakpoint
CREATE TABLE "order_shipment_lines" (
	"shipment_id" integer NOT NULL,
	"order_line_id" integer NOT NULL,
	"cantidad" integer NOT NULL,
	CONSTRAINT "order_shipment_lines_shipment_id_order_line_id_pk" PRIMARY KEY("shipment_id","order_line_id"),
	CONSTRAINT "order_shipment_lines_cantidad" CHECK ("order_shipment_lines"."cantidad" >= 1)
);
--> statement-breakpoint
CREATE TABLE "order_shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"numero" integer NOT NULL,
	"guia" text,
	"paqueteria" text,
	"fecha" date NOT NULL,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_lines" DROP CONSTRAINT "order_lines_cantidad_min";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_surtido_estatus";--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "fecha_promesa" date;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "enviado" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "cancelado" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "motivo_cancelacion" text;--> statement-breakpoint
ALTER TABLE "late_line_digests" ADD CONSTRAINT "late_line_digests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipment_lines" ADD CONSTRAINT "order_shipment_lines_shipment_id_order_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."order_shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipment_lines" ADD CONSTRAINT "order_shipment_lines_order_line_id_order_lines_id_fk" FOREIGN KEY ("order_line_id") REFERENCES "public"."order_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "late_line_digests_sent_idx" ON "late_line_digests" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "order_shipment_lines_line_idx" ON "order_shipment_lines" USING btree ("order_line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_shipments_order_numero_idx" ON "order_shipments" USING btree ("order_id","numero");--> statement-breakpoint
CREATE INDEX "order_lines_promesa_abierta_idx" ON "order_lines" USING btree ("fecha_promesa","order_id") WHERE "order_lines"."fecha_promesa" is not null and "order_lines"."cantidad" > "order_lines"."enviado";--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_enviado" CHECK ("order_lines"."enviado" between 0 and "order_lines"."cantidad");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_cancelado" CHECK ("order_lines"."cancelado" >= 0);--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_cantidad_min" CHECK ("order_lines"."cantidad" >= 0 and "order_lines"."cantidad" + "order_lines"."cancelado" >= 1);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_surtido_estatus" CHECK ("orders"."surtido_estatus" in ('por_surtir', 'en_surtido', 'parcial', 'enviado', 'entregado'));--> statement-breakpoint
-- Orders shipped before shipments existed (decision 0125): every unit shipped, in one shipment numbered 1.
UPDATE "order_lines" l SET "enviado" = l."cantidad" FROM "orders" o
  WHERE o."id" = l."order_id" AND o."surtido_estatus" IN ('enviado', 'entregado');--> statement-breakpoint
INSERT INTO "order_shipments" ("order_id", "numero", "guia", "paqueteria", "fecha", "created_at")
  SELECT o."id", 1, o."guia", o."paqueteria", (o."updated_at" AT TIME ZONE 'America/Mexico_City')::date, o."updated_at"
  FROM "orders" o WHERE o."surtido_estatus" IN ('enviado', 'entregado');--> statement-breakpoint
INSERT INTO "order_shipment_lines" ("shipment_id", "order_line_id", "cantidad")
  SELECT s."id", l."id", l."cantidad" FROM "order_shipments" s JOIN "order_lines" l ON l."order_id" = s."order_id"
  WHERE l."cantidad" > 0;
