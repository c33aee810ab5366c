CREATE TABLE "receiver_addresses" (
	"user_id" integer NOT NULL,
	"address_id" integer NOT NULL,
	CONSTRAINT "receiver_addresses_user_id_address_id_pk" PRIMARY KEY("user_id","address_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "receptor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "receiver_addresses" ADD CONSTRAINT "receiver_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receiver_addresses" ADD CONSTRAINT "receiver_addresses_address_id_client_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."client_addresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receiver_addresses_address_idx" ON "receiver_addresses" USING btree ("address_id");--> statement-breakpoint
CREATE INDEX "orders_recepcion_idx" ON "orders" USING btree ("id_cliente",(("entrega" ->> 'id_direccion')::int),"id") WHERE "orders"."surtido_estatus" in ('parcial', 'enviado', 'entregado');