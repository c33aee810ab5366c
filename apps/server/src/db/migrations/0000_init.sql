CREATE TABLE "auth_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cart_items" (
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"cantidad" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_items_user_id_product_id_pk" PRIMARY KEY("user_id","product_id"),
	CONSTRAINT "cart_items_cantidad_min" CHECK ("cart_items"."cantidad" >= 1)
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"nombre" text NOT NULL,
	"icono" text DEFAULT 'IconPackage' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" text NOT NULL,
	"imagen" text,
	"color" text DEFAULT '#1c7ed6' NOT NULL,
	"color2" text DEFAULT '#15aabf' NOT NULL,
	"calendario" text,
	"manual" text,
	"presupuesto_default" bigint DEFAULT 0 NOT NULL,
	"cantidad_autorizadores" smallint DEFAULT 1 NOT NULL,
	"limite_de_compras" integer DEFAULT -1 NOT NULL,
	"modo_presupuesto" text DEFAULT 'regular' NOT NULL,
	"mostrar_presupuesto_a_usuarios" boolean DEFAULT true NOT NULL,
	"activo" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_autorizadores_range" CHECK ("clients"."cantidad_autorizadores" between 0 and 2),
	CONSTRAINT "clients_limite_min" CHECK ("clients"."limite_de_compras" >= -1),
	CONSTRAINT "clients_presupuesto_min" CHECK ("clients"."presupuesto_default" >= 0),
	CONSTRAINT "clients_modo" CHECK ("clients"."modo_presupuesto" in ('regular', 'categoria'))
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "import_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"tipo" text NOT NULL,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"file_id" text,
	"file_name" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"ok_rows" integer DEFAULT 0 NOT NULL,
	"error_rows" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"actor_id" integer,
	"tipo" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"changes" jsonb,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"clave_interna" text NOT NULL,
	"clave_cliente" text NOT NULL,
	"nombre" text NOT NULL,
	"unidad_de_medida" text NOT NULL,
	"id_categoria" integer NOT NULL,
	"categoria" text NOT NULL,
	"precio" bigint NOT NULL,
	"impuesto" boolean NOT NULL,
	"cantidad" integer NOT NULL,
	CONSTRAINT "order_lines_cantidad_min" CHECK ("order_lines"."cantidad" >= 1)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_user" integer NOT NULL,
	"id_cliente" integer NOT NULL,
	"status" text NOT NULL,
	"subtotal" bigint NOT NULL,
	"iva" bigint NOT NULL,
	"total" bigint NOT NULL,
	"transaction_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_status" CHECK ("orders"."status" in ('pendiente', 'espera', 'aprobado', 'cancelado'))
);
--> statement-breakpoint
CREATE TABLE "password_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"id_categoria" integer NOT NULL,
	"clave_interna" text NOT NULL,
	"clave_cliente" text DEFAULT '' NOT NULL,
	"nombre" text NOT NULL,
	"descripcion" text DEFAULT '' NOT NULL,
	"unidad_de_medida" text DEFAULT 'Pieza' NOT NULL,
	"precio" bigint NOT NULL,
	"activo" boolean DEFAULT true NOT NULL,
	"impuesto" boolean DEFAULT true NOT NULL,
	"imagen" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_precio_min" CHECK ("products"."precio" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer,
	"xsrf_token" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" text PRIMARY KEY NOT NULL,
	"id_cliente" integer,
	"kind" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"event_type" text NOT NULL,
	"description" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_category_budgets" (
	"user_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"presupuesto" bigint NOT NULL,
	CONSTRAINT "user_category_budgets_user_id_category_id_pk" PRIMARY KEY("user_id","category_id"),
	CONSTRAINT "user_category_budgets_min" CHECK ("user_category_budgets"."presupuesto" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_products" (
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"asignado" boolean DEFAULT true NOT NULL,
	"cantidad_limite" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_products_user_id_product_id_pk" PRIMARY KEY("user_id","product_id"),
	CONSTRAINT "user_products_limite_min" CHECK ("user_products"."cantidad_limite" >= 1)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer,
	"usuario" text NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"nombre" text NOT NULL,
	"rol" smallint NOT NULL,
	"direccion_entrega" text DEFAULT '' NOT NULL,
	"area" text DEFAULT '' NOT NULL,
	"localidad" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"coordinacion" text DEFAULT '' NOT NULL,
	"calle" text DEFAULT '' NOT NULL,
	"colonia" text DEFAULT '' NOT NULL,
	"ciudad" text DEFAULT '' NOT NULL,
	"cp" text DEFAULT '' NOT NULL,
	"estado" text DEFAULT '' NOT NULL,
	"active_week" smallint DEFAULT 1 NOT NULL,
	"entrega_week" smallint DEFAULT 1 NOT NULL,
	"activo" boolean DEFAULT true NOT NULL,
	"limite_de_compras" integer DEFAULT -1 NOT NULL,
	"presupuesto_default" bigint DEFAULT 0 NOT NULL,
	"password_hash" text,
	"password_changed_at" timestamp with time zone,
	"password_temporary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_rol_range" CHECK ("users"."rol" between 1 and 4),
	CONSTRAINT "users_weeks_range" CHECK ("users"."active_week" between 1 and 4 and "users"."entrega_week" between 1 and 4),
	CONSTRAINT "users_cliente_by_rol" CHECK (("users"."rol" = 4) = ("users"."id_cliente" is null)),
	CONSTRAINT "users_limite_min" CHECK ("users"."limite_de_compras" >= -1)
);
--> statement-breakpoint
CREATE TABLE "weeks" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_cliente" integer NOT NULL,
	"inicio" date NOT NULL,
	"fin" date NOT NULL,
	"activo" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "weeks_range" CHECK ("weeks"."fin" >= "weeks"."inicio")
);
--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_id_user_users_id_fk" FOREIGN KEY ("id_user") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_tokens" ADD CONSTRAINT "password_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_id_categoria_categories_id_fk" FOREIGN KEY ("id_categoria") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_category_budgets" ADD CONSTRAINT "user_category_budgets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_category_budgets" ADD CONSTRAINT "user_category_budgets_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_products" ADD CONSTRAINT "user_products_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_products" ADD CONSTRAINT "user_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weeks" ADD CONSTRAINT "weeks_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_attempts_subject_idx" ON "auth_attempts" USING btree ("kind","subject","ip","created_at");--> statement-breakpoint
CREATE INDEX "auth_attempts_ip_idx" ON "auth_attempts" USING btree ("kind","ip","created_at");--> statement-breakpoint
CREATE INDEX "cart_items_product_idx" ON "cart_items" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_cliente_nombre_unique" ON "categories" USING btree ("id_cliente",lower("nombre"));--> statement-breakpoint
CREATE INDEX "clients_nombre_idx" ON "clients" USING btree ("nombre");--> statement-breakpoint
CREATE INDEX "email_outbox_pending_idx" ON "email_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "import_jobs_cliente_idx" ON "import_jobs" USING btree ("id_cliente","id");--> statement-breakpoint
CREATE INDEX "import_jobs_status_idx" ON "import_jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "order_lines_order_idx" ON "order_lines" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_lines_product_idx" ON "order_lines" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "orders_cliente_id_idx" ON "orders" USING btree ("id_cliente","id");--> statement-breakpoint
CREATE INDEX "orders_cliente_status_idx" ON "orders" USING btree ("id_cliente","status","id");--> statement-breakpoint
CREATE INDEX "orders_cliente_date_idx" ON "orders" USING btree ("id_cliente","transaction_date");--> statement-breakpoint
CREATE INDEX "orders_user_date_idx" ON "orders" USING btree ("id_user","transaction_date");--> statement-breakpoint
CREATE INDEX "orders_user_id_idx" ON "orders" USING btree ("id_user","id");--> statement-breakpoint
CREATE UNIQUE INDEX "password_tokens_hash_unique" ON "password_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_tokens_user_idx" ON "password_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_cliente_clave_unique" ON "products" USING btree ("id_cliente","clave_interna");--> statement-breakpoint
CREATE INDEX "products_cliente_categoria_idx" ON "products" USING btree ("id_cliente","id_categoria");--> statement-breakpoint
CREATE INDEX "products_categoria_idx" ON "products" USING btree ("id_categoria");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stored_files_cliente_idx" ON "stored_files" USING btree ("id_cliente");--> statement-breakpoint
CREATE INDEX "system_logs_event_idx" ON "system_logs" USING btree ("event_type","id");--> statement-breakpoint
CREATE INDEX "system_logs_user_idx" ON "system_logs" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "system_logs_created_idx" ON "system_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "user_category_budgets_category_idx" ON "user_category_budgets" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "user_products_product_idx" ON "user_products" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_usuario_unique" ON "users" USING btree (lower("usuario"));--> statement-breakpoint
CREATE INDEX "users_cliente_idx" ON "users" USING btree ("id_cliente","rol","id");--> statement-breakpoint
CREATE UNIQUE INDEX "weeks_cliente_inicio_fin_unique" ON "weeks" USING btree ("id_cliente","inicio","fin");--> statement-breakpoint
CREATE INDEX "weeks_cliente_range_idx" ON "weeks" USING btree ("id_cliente","inicio","fin");