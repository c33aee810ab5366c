CREATE TABLE "client_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"nombre" text NOT NULL,
	"calle" text NOT NULL,
	"numero_exterior" text NOT NULL,
	"numero_interior" text DEFAULT '' NOT NULL,
	"colonia" text NOT NULL,
	"municipio" text NOT NULL,
	"ciudad" text NOT NULL,
	"estado" text NOT NULL,
	"cp" text NOT NULL,
	"contacto" text NOT NULL,
	"telefono" text NOT NULL,
	"horario" text DEFAULT '' NOT NULL,
	"activo" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_addresses_cp" CHECK ("client_addresses"."cp" ~ '^[0-9]{5}$')
);
--> statement-breakpoint
CREATE TABLE "user_addresses" (
	"user_id" integer NOT NULL,
	"address_id" integer NOT NULL,
	CONSTRAINT "user_addresses_user_id_address_id_pk" PRIMARY KEY("user_id","address_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "id_direccion" integer;--> statement-breakpoint
ALTER TABLE "client_addresses" ADD CONSTRAINT "client_addresses_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_addresses" ADD CONSTRAINT "user_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_addresses" ADD CONSTRAINT "user_addresses_address_id_client_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."client_addresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "client_addresses_nombre_unique" ON "client_addresses" USING btree ("id_cliente",lower("nombre")) WHERE "client_addresses"."activo";--> statement-breakpoint
CREATE INDEX "client_addresses_cliente_idx" ON "client_addresses" USING btree ("id_cliente","activo","id");--> statement-breakpoint
CREATE INDEX "user_addresses_address_idx" ON "user_addresses" USING btree ("address_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_id_direccion_client_addresses_id_fk" FOREIGN KEY ("id_direccion") REFERENCES "public"."client_addresses"("id") ON DELETE no action ON UPDATE no action;