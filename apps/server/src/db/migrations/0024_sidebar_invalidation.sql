-- The buyer's sidebar (assigned active products per category) is kept with the session in the principal
-- cache (decision 0075): every change that can move it is announced on 'portal_principal' like the changes
-- of 0021 — a user's assignments as the user ('u:<ids>'), a client's products and categories as the client
-- ('c:<ids>'). Both drop the kept sessions they touch, which read their principal and sidebar again once.
CREATE FUNCTION portal_principal_assignments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT string_agg(DISTINCT user_id::text, ',') INTO ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT string_agg(DISTINCT user_id::text, ',') INTO ids FROM old_rows;
  ELSE
    SELECT string_agg(DISTINCT u::text, ',') INTO ids
      FROM (SELECT user_id AS u FROM old_rows UNION SELECT user_id FROM new_rows) AS changed;
  END IF;
  PERFORM portal_principal_notify('u', ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER user_products_principal_insert AFTER INSERT ON user_products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_assignments_changed();
--> statement-breakpoint
CREATE TRIGGER user_products_principal_update AFTER UPDATE ON user_products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_assignments_changed();
--> statement-breakpoint
CREATE TRIGGER user_products_principal_delete AFTER DELETE ON user_products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_assignments_changed();
--> statement-breakpoint
-- A product or a category edited or removed (a new one is assigned to nobody yet): its client, old and new.
CREATE FUNCTION portal_principal_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT string_agg(DISTINCT id_cliente::text, ',') INTO ids FROM old_rows;
  ELSE
    SELECT string_agg(DISTINCT c::text, ',') INTO ids
      FROM (SELECT id_cliente AS c FROM old_rows UNION SELECT id_cliente FROM new_rows) AS changed;
  END IF;
  PERFORM portal_principal_notify('c', ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_principal_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER products_principal_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER categories_principal_update AFTER UPDATE ON categories
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER categories_principal_delete AFTER DELETE ON categories REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER user_products_principal_truncate AFTER TRUNCATE ON user_products
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_truncated();
--> statement-breakpoint
CREATE TRIGGER products_principal_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_truncated();
--> statement-breakpoint
CREATE TRIGGER categories_principal_truncate AFTER TRUNCATE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_truncated();
