CREATE TABLE "client_order_versions" (
	"id_cliente" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "portal_bump_order_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "client_order_versions" ("id_cliente", "version") VALUES (OLD."id_cliente", 1)
      ON CONFLICT ("id_cliente") DO UPDATE SET "version" = "client_order_versions"."version" + 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND (TG_OP = 'INSERT' OR NEW."id_cliente" IS DISTINCT FROM OLD."id_cliente") THEN
    INSERT INTO "client_order_versions" ("id_cliente", "version") VALUES (NEW."id_cliente", 1)
      ON CONFLICT ("id_cliente") DO UPDATE SET "version" = "client_order_versions"."version" + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Deferred to the commit, so the client's counter row is locked only while the transaction commits.
CREATE CONSTRAINT TRIGGER "orders_bump_version" AFTER INSERT OR UPDATE OR DELETE ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "portal_bump_order_version"();
