-- Each user's number of orders moves out of `users` into a table of its own (decision 0146). As a column
-- (0061) every purchase updated the buyer's row, and every update of a user runs the `users` trigger of
-- `portal_principal` (0021, 0030, 0067), which had to capture both versions of the row and compare them to
-- leave the count unannounced. The count now moves without touching `users`.
CREATE TABLE "user_order_counts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"total_pedidos" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_order_counts" ADD CONSTRAINT "user_order_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Filled from the orders there are (a user without orders has no row).
INSERT INTO "user_order_counts" ("user_id", "total_pedidos")
SELECT "id_user", count(*)::int FROM "orders" GROUP BY "id_user";
--> statement-breakpoint
-- Still once per statement, one row per user of the statement's orders, in the users' order (two
-- statements moving the same users take their rows in the same order).
CREATE OR REPLACE FUNCTION "portal_count_user_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "user_order_counts" AS k ("user_id", "total_pedidos")
    SELECT "id_user", count(*)::int FROM "added" GROUP BY "id_user" ORDER BY "id_user"
    ON CONFLICT ("user_id") DO UPDATE SET "total_pedidos" = k."total_pedidos" + excluded."total_pedidos";
  ELSE
    UPDATE "user_order_counts" k SET "total_pedidos" = k."total_pedidos" - c."n"
    FROM (SELECT "id_user", count(*)::int AS "n" FROM "removed" GROUP BY "id_user") c WHERE k."user_id" = c."id_user";
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Every updated user is announced again, as before 0067: nothing that moves with activity is left in the row.
DROP TRIGGER "users_principal_update" ON "users";
--> statement-breakpoint
CREATE TRIGGER "users_principal_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_users_changed();
--> statement-breakpoint
DROP FUNCTION "portal_principal_users_updated"();
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "total_pedidos";
