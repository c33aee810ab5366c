-- Each order's number of comments, stored with the order (decision 0085): the order lists and the buyer's
-- history read it instead of counting every row's comments. Filled from the comments that exist; kept by
-- a trigger on order_comments, whatever inserts or deletes them (a deleted order takes its comments with it).
ALTER TABLE "orders" ADD COLUMN "comentarios" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "orders" o SET "comentarios" = c.n
  FROM (SELECT "order_id", count(*)::int AS n FROM "order_comments" GROUP BY 1) c
  WHERE c."order_id" = o."id";--> statement-breakpoint
CREATE FUNCTION "portal_count_order_comments"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "orders" SET "comentarios" = "comentarios" + 1 WHERE "id" = NEW."order_id";
  ELSE
    UPDATE "orders" SET "comentarios" = "comentarios" - 1 WHERE "id" = OLD."order_id";
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "order_comments_count" AFTER INSERT OR DELETE ON "order_comments"
  FOR EACH ROW EXECUTE FUNCTION "portal_count_order_comments"();
