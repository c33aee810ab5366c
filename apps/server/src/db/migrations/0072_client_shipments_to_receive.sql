-- A client's shipments still to receive counted by the address they went to (decision 0149, finding 67): what the
-- receivers' unsearched list sums at every page, instead of reading every shipment to receive in the
-- receiver's reach (1,157 index entries a call for the bench's receiver on xlarge). Rows of what each
-- statement on `order_shipments` moved (+ and −, by client and address), appended by statement triggers and
-- never updated, so that shipments and receipts of one address never wait on each other (as the users' counts,
-- decision 0078); the buyer's profile address (`id_direccion` null) is address 0. The reader merges a client's
-- rows once they are many.
CREATE TABLE "client_shipments_to_receive" (
	"id_cliente" integer NOT NULL,
	"id_direccion" integer NOT NULL,
	"envios" integer NOT NULL
);
--> statement-breakpoint
-- The sums read the index alone (written by hand: the schema builder has no INCLUDE).
CREATE INDEX "client_shipments_to_receive_key_idx" ON "client_shipments_to_receive" ("id_cliente", "id_direccion") INCLUDE ("envios");
--> statement-breakpoint
-- Filled from the shipments there are.
INSERT INTO "client_shipments_to_receive" ("id_cliente", "id_direccion", "envios")
SELECT "id_cliente", coalesce("id_direccion", 0), count(*)::int FROM "order_shipments"
WHERE NOT "recibido" GROUP BY 1, 2;
--> statement-breakpoint
-- Once per statement on `order_shipments`: −1 for each shipment to receive it removed (at its client and
-- address then), +1 for each it added (at theirs now), appended as one row per client and address that moved.
-- An update that changes no shipment's client, address or receipt appends nothing.
CREATE FUNCTION "portal_shipments_to_receive"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "client_shipments_to_receive" ("id_cliente", "id_direccion", "envios")
    SELECT a."id_cliente", coalesce(a."id_direccion", 0), count(*)::int FROM "added" a
    WHERE NOT a."recibido" GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "client_shipments_to_receive" ("id_cliente", "id_direccion", "envios")
    SELECT r."id_cliente", coalesce(r."id_direccion", 0), -count(*)::int FROM "removed" r
    WHERE NOT r."recibido" GROUP BY 1, 2;
  ELSE
    INSERT INTO "client_shipments_to_receive" ("id_cliente", "id_direccion", "envios")
    SELECT m.c, m.d, sum(m.n)::int FROM (
      SELECT r."id_cliente" AS c, coalesce(r."id_direccion", 0) AS d, -1 AS n FROM "removed" r WHERE NOT r."recibido"
      UNION ALL
      SELECT a."id_cliente", coalesce(a."id_direccion", 0), 1 FROM "added" a WHERE NOT a."recibido"
    ) m GROUP BY 1, 2 HAVING sum(m.n) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "order_shipments_to_receive_insert" AFTER INSERT ON "order_shipments" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_shipments_to_receive"();
--> statement-breakpoint
CREATE TRIGGER "order_shipments_to_receive_delete" AFTER DELETE ON "order_shipments" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_shipments_to_receive"();
--> statement-breakpoint
CREATE TRIGGER "order_shipments_to_receive_update" AFTER UPDATE ON "order_shipments"
  REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_shipments_to_receive"();
