-- A product's update announced its client on 'portal_principal' whatever it changed (0024), so that every
-- approval (its stock reservation), shipment, stock write or price change dropped every kept session of the
-- client, and every open live stream of the client checked its session again. What the kept sessions hold of
-- products is the buyer's sidebar (assigned active products per category): only a change of a product's
-- client, category or active flag moves it. Deletes and categories keep the general function.
CREATE FUNCTION portal_principal_products_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  SELECT string_agg(DISTINCT v.client::text, ',') INTO ids
    FROM old_rows o JOIN new_rows n ON n.id = o.id,
      LATERAL (VALUES (o.id_cliente), (n.id_cliente)) AS v(client)
    WHERE (o.id_cliente, o.id_categoria, o.activo) IS DISTINCT FROM (n.id_cliente, n.id_categoria, n.activo);
  PERFORM portal_principal_notify('c', ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER products_principal_update ON products;
--> statement-breakpoint
CREATE TRIGGER products_principal_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_products_changed();
