-- Searches by part of a text, case and accents ignored, answer from trigram indexes (decision 0068):
-- portal_fold is the folding of db/search.ts (lower case, the accents of Spanish removed), immutable so
-- that indexes can be built on it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE OR REPLACE FUNCTION portal_fold(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT translate(lower(t), 'áàäâéèëêíìïîóòöôúùüûñç', 'aaaaeeeeiiiioooouuuunc') $$;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ultimo_acceso" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "users_cliente_usuario_idx" ON "users" USING btree ("id_cliente",lower("usuario"),"id");--> statement-breakpoint
CREATE INDEX "users_cliente_nombre_idx" ON "users" USING btree ("id_cliente",lower("nombre"),"id");--> statement-breakpoint
CREATE INDEX "users_cliente_acceso_idx" ON "users" USING btree ("id_cliente","ultimo_acceso" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "users_usuario_trgm_idx" ON "users" USING gin (portal_fold("usuario") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_nombre_trgm_idx" ON "users" USING gin (portal_fold("nombre") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin (portal_fold("user_id") gin_trgm_ops);