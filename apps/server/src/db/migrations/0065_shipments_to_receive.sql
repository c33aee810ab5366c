-- The receivers' list (decision 0139, finding 47): each shipment keeps its order's client and address and
-- whether it has its receipt, so that "this client's shipments without a receipt, newest first" is a range of
-- one partial index.
ALTER TABLE "order_shipments" ADD COLUMN "id_cliente" integer;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD COLUMN "id_direccion" integer;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD COLUMN "recibido" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Filled from the orders and the receipts there are, in one pass over the shipments.
UPDATE "order_shipments" s
SET "id_cliente" = o."id_cliente",
  "id_direccion" = (o."entrega" ->> 'id_direccion')::int,
  "recibido" = EXISTS (SELECT 1 FROM "order_receipts" r WHERE r."shipment_id" = s."id")
FROM "orders" o WHERE o."id" = s."order_id";
--> statement-breakpoint
ALTER TABLE "order_shipments" ALTER COLUMN "id_cliente" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_id_cliente_clients_id_fk" FOREIGN KEY ("id_cliente") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_shipments_por_recibir_idx" ON "order_shipments" USING btree ("id_cliente","id" DESC NULLS LAST,"id_direccion") WHERE not "order_shipments"."recibido";
--> statement-breakpoint
-- A shipment is its order's client's, sent where its order was, whatever its writer passed or sets: an order
-- never changes client, and its delivery copy (`entrega`) is written once, at the purchase.
CREATE FUNCTION "portal_shipment_order_copy"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT o."id_cliente", (o."entrega" ->> 'id_direccion')::int INTO NEW."id_cliente", NEW."id_direccion"
  FROM "orders" o WHERE o."id" = NEW."order_id";
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "order_shipments_order_copy"
  BEFORE INSERT OR UPDATE OF "order_id", "id_cliente", "id_direccion" ON "order_shipments"
  FOR EACH ROW EXECUTE FUNCTION "portal_shipment_order_copy"();
--> statement-breakpoint
-- Once per statement: the shipments of the receipts written, removed or moved say whether a receipt of
-- theirs exists now (one receipt a shipment, order_receipts_shipment_idx). A receipt that lost the race
-- (`on conflict do nothing`) wrote no row and moves nothing; a shipment deleted with its receipt (its order's
-- deletion cascades to both) is simply not found.
CREATE FUNCTION "portal_shipment_received"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "order_shipments" s SET "recibido" = true
    WHERE s."id" IN (SELECT "shipment_id" FROM "added") AND NOT s."recibido";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "order_shipments" s SET "recibido" = false
    WHERE s."id" IN (SELECT "shipment_id" FROM "removed") AND s."recibido"
      AND NOT EXISTS (SELECT 1 FROM "order_receipts" r WHERE r."shipment_id" = s."id");
  ELSE
    UPDATE "order_shipments" s SET "recibido" = NOT s."recibido"
    WHERE s."id" IN (SELECT "shipment_id" FROM "removed" UNION SELECT "shipment_id" FROM "added")
      AND s."recibido" IS DISTINCT FROM EXISTS (SELECT 1 FROM "order_receipts" r WHERE r."shipment_id" = s."id");
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "order_receipts_received_insert" AFTER INSERT ON "order_receipts" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_shipment_received"();
--> statement-breakpoint
CREATE TRIGGER "order_receipts_received_delete" AFTER DELETE ON "order_receipts" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_shipment_received"();
--> statement-breakpoint
CREATE TRIGGER "order_receipts_received_update" AFTER UPDATE ON "order_receipts"
  REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_shipment_received"();
