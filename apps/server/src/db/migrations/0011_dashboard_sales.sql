CREATE TABLE "product_month_sales" (
	"id_cliente" integer NOT NULL,
	"mes" date NOT NULL,
	"product_id" integer NOT NULL,
	"id_categoria" integer NOT NULL,
	"cantidad" bigint NOT NULL,
	"importe" bigint NOT NULL,
	"iva" bigint NOT NULL,
	CONSTRAINT "product_month_sales_id_cliente_mes_product_id_id_categoria_pk" PRIMARY KEY("id_cliente","mes","product_id","id_categoria")
);
--> statement-breakpoint
CREATE TABLE "sales_state" (
	"id" smallint PRIMARY KEY NOT NULL,
	"tz" text NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "orders_cliente_date_status_total_idx" ON "orders" USING btree ("id_cliente","transaction_date","status","total");