CREATE TABLE "user_counts" (
	"id_cliente" integer NOT NULL,
	"rol" smallint NOT NULL,
	"activo" boolean NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
-- Filled from the users there are (decision 0078).
INSERT INTO "user_counts" ("id_cliente", "rol", "activo", "n")
SELECT coalesce("id_cliente", 0), "rol", "activo", count(*)::int FROM "users" WHERE "rol" <> 4 GROUP BY 1, 2, 3;
--> statement-breakpoint
-- A row of +1 for the new state and of −1 for the old one: appended only, so no write waits on another.
CREATE FUNCTION "portal_count_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."rol" <> 4 THEN
    INSERT INTO "user_counts" ("id_cliente", "rol", "activo", "n")
      VALUES (coalesce(OLD."id_cliente", 0), OLD."rol", OLD."activo", -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."rol" <> 4 THEN
    INSERT INTO "user_counts" ("id_cliente", "rol", "activo", "n")
      VALUES (coalesce(NEW."id_cliente", 0), NEW."rol", NEW."activo", 1);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_count_insert_delete" AFTER INSERT OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "portal_count_user"();
--> statement-breakpoint
-- A sign-in, a password or any other column leaves the counts alone.
CREATE TRIGGER "users_count_update" AFTER UPDATE OF "id_cliente", "rol", "activo" ON "users"
  FOR EACH ROW WHEN (OLD."id_cliente" IS DISTINCT FROM NEW."id_cliente" OR OLD."rol" IS DISTINCT FROM NEW."rol"
    OR OLD."activo" IS DISTINCT FROM NEW."activo")
  EXECUTE FUNCTION "portal_count_user"();
