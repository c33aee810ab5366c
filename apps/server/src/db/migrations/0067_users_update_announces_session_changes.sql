-- A user's row changed by an update is announced on 'portal_principal' (0021, 0030) only when something
-- besides `total_pedidos` changed (decision 0145). The kept order count (0061) moves with every order placed
-- or deleted; announcing it dropped the buyer's kept session, sidebar included, in every process after each
-- purchase, and the buyer's next request read them all again. The signed-in user kept with a session does
-- not carry the count (db/principal.ts). A row whose new version differs in any other column is announced
-- as before, with whoever stands in for it.
CREATE FUNCTION portal_principal_users_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_principal_notify('u', (
    WITH changed AS (
      SELECT o.id FROM old_rows o
       WHERE NOT EXISTS (
         SELECT 1 FROM new_rows n
          WHERE n.id = o.id AND to_jsonb(n) - 'total_pedidos' = to_jsonb(o) - 'total_pedidos'
       )
    )
    SELECT string_agg(DISTINCT u::text, ',')
      FROM (SELECT id AS u FROM changed
            UNION SELECT d.delegate_id FROM delegations d JOIN changed c ON c.id = d.delegator_id) AS announced
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER users_principal_update ON users;
--> statement-breakpoint
CREATE TRIGGER users_principal_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_users_updated();
