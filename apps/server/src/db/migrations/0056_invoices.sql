CREATE TABLE "invoice_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"importe" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_applications_importe" CHECK ("invoice_applications"."importe" > 0),
	CONSTRAINT "invoice_applications_distinct" CHECK ("invoice_applications"."source_id" <> "invoice_applications"."invoice_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"invoice_id" integer NOT NULL,
	"numero" integer NOT NULL,
	"clave_prod_serv" text NOT NULL,
	"no_identificacion" text,
	"cantidad" text NOT NULL,
	"clave_unidad" text NOT NULL,
	"unidad" text,
	"descripcion" text NOT NULL,
	"valor_unitario" text NOT NULL,
	"importe" bigint NOT NULL,
	"descuento" bigint NOT NULL,
	CONSTRAINT "invoice_lines_invoice_id_numero_pk" PRIMARY KEY("invoice_id","numero")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"order_id" integer NOT NULL,
	"shipment_id" integer,
	"tipo" text NOT NULL,
	"uuid" text NOT NULL,
	"serie" text,
	"folio" text,
	"fecha" text NOT NULL,
	"fecha_timbrado" text NOT NULL,
	"emisor_rfc" text NOT NULL,
	"emisor_nombre" text NOT NULL,
	"receptor_rfc" text NOT NULL,
	"receptor_nombre" text NOT NULL,
	"uso_cfdi" text NOT NULL,
	"subtotal" bigint NOT NULL,
	"descuento" bigint NOT NULL,
	"traslados" bigint NOT NULL,
	"retenciones" bigint NOT NULL,
	"total" bigint NOT NULL,
	"moneda" text DEFAULT 'MXN' NOT NULL,
	"metodo_pago" text,
	"forma_pago" text,
	"saldo" bigint,
	"xml_file_id" text NOT NULL,
	"pdf_file_id" text,
	"created_by" integer,
	"token_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_tipo" CHECK ("invoices"."tipo" in ('I', 'E', 'P')),
	CONSTRAINT "invoices_moneda" CHECK ("invoices"."moneda" = 'MXN'),
	CONSTRAINT "invoices_uuid_shape" CHECK ("invoices"."uuid" ~ '^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$'),
	CONSTRAINT "invoices_saldo" CHECK (("invoices"."tipo" = 'I') = ("invoices"."saldo" is not null)),
	CONSTRAINT "invoices_saldo_range" CHECK ("invoices"."saldo" is null or ("invoices"."saldo" >= 0 and "invoices"."saldo" <= "invoices"."total")),
	CONSTRAINT "invoices_amounts" CHECK ("invoices"."subtotal" >= 0 and "invoices"."descuento" >= 0 and "invoices"."traslados" >= 0 and "invoices"."retenciones" >= 0 and "invoices"."total" >= 0)
);
--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_source_id_invoices_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_shipment_id_order_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."order_shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_xml_file_id_stored_files_id_fk" FOREIGN KEY ("xml_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_pdf_file_id_stored_files_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_applications_source_invoice_idx" ON "invoice_applications" USING btree ("source_id","invoice_id");--> statement-breakpoint
CREATE INDEX "invoice_applications_invoice_idx" ON "invoice_applications" USING btree ("invoice_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_uuid_idx" ON "invoices" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "invoices_cliente_idx" ON "invoices" USING btree ("id_cliente","id");