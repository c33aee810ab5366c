-- The buyer's sidebar, cart and catalogue walk a user's assignments and look each product up by id:
-- with these columns in the indexes those look-ups never visit the tables (GET /api/sesion reads
-- about 600 index pages instead of 1,000 table and index pages for 200 assigned products).
CREATE INDEX IF NOT EXISTS "user_products_user_cover_idx" ON "user_products" ("user_id", "product_id") INCLUDE ("asignado", "cantidad_limite");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "products_id_cover_idx" ON "products" ("id") INCLUDE ("id_cliente", "activo", "id_categoria");
