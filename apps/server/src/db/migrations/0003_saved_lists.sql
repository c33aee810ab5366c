CREATE TABLE "saved_list_items" (
	"list_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"cantidad" integer NOT NULL,
	"posicion" smallint NOT NULL,
	CONSTRAINT "saved_list_items_list_id_product_id_pk" PRIMARY KEY("list_id","product_id"),
	CONSTRAINT "saved_list_items_cantidad_min" CHECK ("saved_list_items"."cantidad" >= 1)
);
--> statement-breakpoint
CREATE TABLE "saved_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"nombre" text NOT NULL,
	"nombre_clave" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "saved_list_items" ADD CONSTRAINT "saved_list_items_list_id_saved_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."saved_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_list_items" ADD CONSTRAINT "saved_list_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_lists" ADD CONSTRAINT "saved_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_list_items_product_idx" ON "saved_list_items" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_lists_user_nombre_unique" ON "saved_lists" USING btree ("user_id","nombre_clave");