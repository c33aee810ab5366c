-- A client's shipments still to receive counted by the address they went to (decision 0149, finding 67): what the
-- receivers' unsearched list counts at every page, instead of reading every shipment to receive in the
-- receiver's reach (1,157 index entries a call for the bench's receiver on xlarge). Kept by statement
-- triggers on `order_shipments`; the buyer's profile address (`id_direccion` null) is address 0; a client
-- and address with none to receive has no row.
CREATE TABLE "client_shipments_to_receive" (
	"id_cliente" integer NOT NULL,
	"id_direccion" integer NOT NULL,
	"envios" integer NOT NULL,
	CONSTRAINT "client_shipments_to_receive_id_cliente_id_direccion_pk" PRIMARY KEY("id_cliente","id_direccion")
);
--> statement-breakpoint
ALTER TABLE "client_shipments_to_receive" ADD CONSTRAINT "client_shipments_to_receive_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Filled from the shipments there are.
INSERT INTO "client_shipments_to_receive" ("id_cliente", "id_direccion", "envios")
SELECT "id_cliente", coalesce("id_direccion", 0), count(*)::int FROM "order_shipments"
WHERE NOT "recibido" GROUP BY 1, 2;
--> statement-breakpoint
-- What a statement moved, as one row per shipment that became one to receive (+1) or stopped being one as it
-- was (-1): summed by client and address and added to the rows in their order (two statements moving the
-- same rows take them in the same order); a row left with none is removed.
CREATE FUNCTION "portal_shipments_to_receive_move"(clientes integer[], direcciones integer[], cuantos integer[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "client_shipments_to_receive" AS k ("id_cliente", "id_direccion", "envios")
  SELECT u.c, u.d, sum(u.n) FROM unnest(clientes, direcciones, cuantos) AS u(c, d, n)
  GROUP BY u.c, u.d HAVING sum(u.n) <> 0 ORDER BY u.c, u.d
  ON CONFLICT ("id_cliente", "id_direccion") DO UPDATE SET "envios" = k."envios" + excluded."envios";
  DELETE FROM "client_shipments_to_receive" k USING unnest(clientes, direcciones) AS u(c, d)
  WHERE k."id_cliente" = u.c AND k."id_direccion" = u.d AND k."envios" = 0;
END;
$$;
--> statement-breakpoint
-- Once per statement on `order_shipments`: the shipments to receive it removed (as they were) and added (as
-- they are now). An update that changes no shipment's client, address or receipt moves nothing.
CREATE FUNCTION "portal_shipments_to_receive"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "portal_shipments_to_receive_move"(array_agg(a."id_cliente"), array_agg(coalesce(a."id_direccion", 0)),
      array_agg(1))
    FROM "added" a WHERE NOT a."recibido" HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "portal_shipments_to_receive_move"(array_agg(r."id_cliente"), array_agg(coalesce(r."id_direccion", 0)),
      array_agg(-1))
    FROM "removed" r WHERE NOT r."recibido" HAVING count(*) > 0;
  ELSE
    PERFORM "portal_shipments_to_receive_move"(array_agg(m.c), array_agg(m.d), array_agg(m.n))
    FROM (
      SELECT r."id_cliente" AS c, coalesce(r."id_direccion", 0) AS d, -1 AS n FROM "removed" r WHERE NOT r."recibido"
      UNION ALL
      SELECT a."id_cliente", coalesce(a."id_direccion", 0), 1 FROM "added" a WHERE NOT a."recibido"
    ) m HAVING count(*) > 0;
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
