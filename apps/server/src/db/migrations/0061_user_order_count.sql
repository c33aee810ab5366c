ALTER TABLE "users" ADD COLUMN "total_pedidos" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Filled from the orders there are.
UPDATE "users" u SET "total_pedidos" = c."n"
FROM (SELECT "id_user", count(*)::int AS "n" FROM "orders" GROUP BY "id_user") c
WHERE u."id" = c."id_user";
--> statement-breakpoint
-- Once per statement, one update per user of the statement's orders: a purchase already holds its buyer's
-- row (cart.service.ts), and a set-based insert of many orders moves each user once.
CREATE FUNCTION "portal_count_user_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "users" u SET "total_pedidos" = u."total_pedidos" + c."n"
    FROM (SELECT "id_user", count(*)::int AS "n" FROM "added" GROUP BY "id_user") c WHERE u."id" = c."id_user";
  ELSE
    UPDATE "users" u SET "total_pedidos" = u."total_pedidos" - c."n"
    FROM (SELECT "id_user", count(*)::int AS "n" FROM "removed" GROUP BY "id_user") c WHERE u."id" = c."id_user";
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "orders_count_user_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_user_orders"();
--> statement-breakpoint
CREATE TRIGGER "orders_count_user_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_user_orders"();
