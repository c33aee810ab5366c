CREATE TABLE "client_buyer_versions" (
	"id_cliente" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- Each client's counter of what the dashboard's buyers show (decision 0088), raised by the triggers below.
CREATE FUNCTION "portal_bump_buyer_version"(c integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "client_buyer_versions" ("id_cliente", "version") VALUES (c, 1)
    ON CONFLICT ("id_cliente") DO UPDATE SET "version" = "client_buyer_versions"."version" + 1;
$$;
--> statement-breakpoint
CREATE FUNCTION "portal_buyer_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."id_cliente" IS NOT NULL THEN
    PERFORM "portal_bump_buyer_version"(OLD."id_cliente");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."id_cliente" IS NOT NULL
    AND (TG_OP = 'INSERT' OR NEW."id_cliente" IS DISTINCT FROM OLD."id_cliente") THEN
    PERFORM "portal_bump_buyer_version"(NEW."id_cliente");
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_buyer_version_insert_delete" AFTER INSERT OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "portal_buyer_changed"();
--> statement-breakpoint
-- What the dashboard shows of a buyer; a sign-in (ultimo_acceso), a password or a session leaves it alone.
CREATE TRIGGER "users_buyer_version_update" AFTER UPDATE OF "id_cliente", "rol", "activo", "nombre", "usuario",
  "presupuesto_default" ON "users"
  FOR EACH ROW WHEN (OLD."id_cliente" IS DISTINCT FROM NEW."id_cliente" OR OLD."rol" IS DISTINCT FROM NEW."rol"
    OR OLD."activo" IS DISTINCT FROM NEW."activo" OR OLD."nombre" IS DISTINCT FROM NEW."nombre"
    OR OLD."usuario" IS DISTINCT FROM NEW."usuario" OR OLD."presupuesto_default" IS DISTINCT FROM NEW."presupuesto_default")
  EXECUTE FUNCTION "portal_buyer_changed"();
--> statement-breakpoint
-- A category budget belongs to its user's client.
CREATE FUNCTION "portal_category_budget_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM "portal_bump_buyer_version"(u."id_cliente") FROM "users" u
      WHERE u."id" = OLD."user_id" AND u."id_cliente" IS NOT NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM "portal_bump_buyer_version"(u."id_cliente") FROM "users" u
      WHERE u."id" = NEW."user_id" AND u."id_cliente" IS NOT NULL;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "user_category_budgets_buyer_version" AFTER INSERT OR UPDATE OR DELETE ON "user_category_budgets"
  FOR EACH ROW EXECUTE FUNCTION "portal_category_budget_changed"();
