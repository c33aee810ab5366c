-- Each client's order counter split in 16 rows (decision 0084): the trigger raises the row of its
-- connection (pg_backend_pid() modulo 16), so concurrent purchases of one client no longer queue on one
-- row while each commits; the dashboard reads the sum, which moves with every change as the one row did.
ALTER TABLE "client_order_versions" DROP CONSTRAINT "client_order_versions_pkey";--> statement-breakpoint
ALTER TABLE "client_order_versions" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_order_versions" ADD CONSTRAINT "client_order_versions_id_cliente_stripe_pk" PRIMARY KEY("id_cliente","stripe");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "portal_bump_order_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s smallint := pg_backend_pid() % 16;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "client_order_versions" ("id_cliente", "stripe", "version") VALUES (OLD."id_cliente", s, 1)
      ON CONFLICT ("id_cliente", "stripe") DO UPDATE SET "version" = "client_order_versions"."version" + 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND (TG_OP = 'INSERT' OR NEW."id_cliente" IS DISTINCT FROM OLD."id_cliente") THEN
    INSERT INTO "client_order_versions" ("id_cliente", "stripe", "version") VALUES (NEW."id_cliente", s, 1)
      ON CONFLICT ("id_cliente", "stripe") DO UPDATE SET "version" = "client_order_versions"."version" + 1;
  END IF;
  RETURN NULL;
END;
$$;
