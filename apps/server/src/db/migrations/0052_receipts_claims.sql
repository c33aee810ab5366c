CREATE TABLE "order_claim_lines" (
	"claim_id" integer NOT NULL,
	"line_id" integer NOT NULL,
	"cantidad" integer NOT NULL,
	"motivo" text NOT NULL,
	CONSTRAINT "order_claim_lines_claim_id_line_id_pk" PRIMARY KEY("claim_id","line_id"),
	CONSTRAINT "order_claim_lines_cantidad" CHECK ("order_claim_lines"."cantidad" >= 1),
	CONSTRAINT "order_claim_lines_motivo" CHECK ("order_claim_lines"."motivo" in ('faltante', 'danado', 'equivocado', 'no_solicitado'))
);
--> statement-breakpoint
CREATE TABLE "order_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"numero" integer NOT NULL,
	"user_id" integer NOT NULL,
	"shipment_id" integer,
	"estado" text DEFAULT 'abierto' NOT NULL,
	"resolucion_solicitada" text NOT NULL,
	"resolucion" text,
	"nota" text,
	"respuesta" text,
	"guia_devolucion" text,
	"paqueteria_devolucion" text,
	"credito" bigint DEFAULT 0 NOT NULL,
	"decided_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_claims_estado" CHECK ("order_claims"."estado" in ('abierto', 'devolucion', 'aceptado', 'rechazado')),
	CONSTRAINT "order_claims_resolucion_solicitada" CHECK ("order_claims"."resolucion_solicitada" in ('reposicion', 'credito')),
	CONSTRAINT "order_claims_resolucion" CHECK ("order_claims"."resolucion" in ('reposicion', 'credito')),
	CONSTRAINT "order_claims_credito" CHECK ("order_claims"."credito" >= 0)
);
--> statement-breakpoint
CREATE TABLE "order_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"file_id" text NOT NULL,
	"nombre" text NOT NULL,
	"tipo" text NOT NULL,
	"receipt_id" integer,
	"claim_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_receipt_lines" (
	"receipt_id" integer NOT NULL,
	"line_id" integer NOT NULL,
	"recibido" integer NOT NULL,
	"motivo" text,
	CONSTRAINT "order_receipt_lines_receipt_id_line_id_pk" PRIMARY KEY("receipt_id","line_id"),
	CONSTRAINT "order_receipt_lines_recibido" CHECK ("order_receipt_lines"."recibido" >= 0),
	CONSTRAINT "order_receipt_lines_motivo" CHECK ("order_receipt_lines"."motivo" in ('faltante', 'danado', 'equivocado'))
);
--> statement-breakpoint
CREATE TABLE "order_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"shipment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"nota" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "budget_adjustments" DROP CONSTRAINT "budget_adjustments_tipo";--> statement-breakpoint
ALTER TABLE "order_lines" DROP CONSTRAINT "order_lines_cantidad_min";--> statement-breakpoint
ALTER TABLE "budget_adjustments" ADD COLUMN "id_reclamo" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "acreditado" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "reclamado" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD COLUMN "reposicion" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD COLUMN "id_reclamo" integer;--> statement-breakpoint
ALTER TABLE "order_claim_lines" ADD CONSTRAINT "order_claim_lines_claim_id_order_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."order_claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_claim_lines" ADD CONSTRAINT "order_claim_lines_line_id_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."order_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_claims" ADD CONSTRAINT "order_claims_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_claims" ADD CONSTRAINT "order_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_claims" ADD CONSTRAINT "order_claims_shipment_id_order_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."order_shipments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_claims" ADD CONSTRAINT "order_claims_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_photos" ADD CONSTRAINT "order_photos_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_photos" ADD CONSTRAINT "order_photos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_photos" ADD CONSTRAINT "order_photos_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_photos" ADD CONSTRAINT "order_photos_receipt_id_order_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."order_receipts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_photos" ADD CONSTRAINT "order_photos_claim_id_order_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."order_claims"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_receipt_lines" ADD CONSTRAINT "order_receipt_lines_receipt_id_order_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."order_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_receipt_lines" ADD CONSTRAINT "order_receipt_lines_line_id_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."order_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_receipts" ADD CONSTRAINT "order_receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_receipts" ADD CONSTRAINT "order_receipts_shipment_id_order_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."order_shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_receipts" ADD CONSTRAINT "order_receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_claims_order_numero_idx" ON "order_claims" USING btree ("order_id","numero");--> statement-breakpoint
CREATE INDEX "order_claims_pendientes_idx" ON "order_claims" USING btree ("created_at","id") WHERE "order_claims"."estado" in ('abierto', 'devolucion');--> statement-breakpoint
CREATE INDEX "order_claims_created_idx" ON "order_claims" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "order_claims_updated_idx" ON "order_claims" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "order_photos_order_idx" ON "order_photos" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "order_photos_file_idx" ON "order_photos" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "order_photos_sueltas_idx" ON "order_photos" USING btree ("created_at") WHERE "order_photos"."receipt_id" is null and "order_photos"."claim_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "order_receipts_shipment_idx" ON "order_receipts" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX "order_receipts_order_idx" ON "order_receipts" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "budget_adjustments" ADD CONSTRAINT "budget_adjustments_id_reclamo_order_claims_id_fk" FOREIGN KEY ("id_reclamo") REFERENCES "public"."order_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_id_reclamo_order_claims_id_fk" FOREIGN KEY ("id_reclamo") REFERENCES "public"."order_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_adjustments" ADD CONSTRAINT "budget_adjustments_tipo" CHECK ("budget_adjustments"."tipo" in ('ampliacion', 'transferencia', 'credito'));--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_acreditado" CHECK ("order_lines"."acreditado" >= 0);--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_reclamado" CHECK ("order_lines"."reclamado" between 0 and "order_lines"."enviado" + "order_lines"."acreditado");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_cantidad_min" CHECK ("order_lines"."cantidad" >= 0 and "order_lines"."cantidad" + "order_lines"."cancelado" + "order_lines"."acreditado" >= 1);--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_reposicion" CHECK ("order_shipments"."reposicion" = ("order_shipments"."id_reclamo" is not null));