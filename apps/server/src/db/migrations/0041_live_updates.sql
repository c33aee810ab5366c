-- Live updates (decision 0116): the database announces, on the channel 'portal_principal' that the session
-- cache already listens to (migration 0021), every order inserted or updated and every user whose bell
-- changed, from statement-level triggers in the changing transaction: delivered at commit, never for a
-- change that was rolled back, once per statement whatever the number of rows. A message names only ids.
-- Payloads: 'p:<order id>:<client id>:<buyer id>;…' (or 'p:*' when one statement changed more than 50
-- orders), 'a:<user ids>' (or 'a:*'). The session cache ignores both kinds.
CREATE FUNCTION portal_live_notify(kind text, ids text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR ids = '' THEN
    RETURN;
  END IF;
  -- A notification's payload must stay under 8000 bytes: too many ids become '*' (everyone refetches).
  IF length(ids) > 7000 THEN
    PERFORM pg_notify('portal_principal', kind || ':*');
  ELSE
    PERFORM pg_notify('portal_principal', kind || ':' || ids);
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION portal_live_orders_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM new_rows) > 50 THEN
    PERFORM portal_live_notify('p', '*');
  ELSE
    PERFORM portal_live_notify('p', (SELECT string_agg(id::text || ':' || id_cliente::text || ':' || id_user::text, ';' ORDER BY id) FROM new_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER orders_live_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_live_orders_changed();
--> statement-breakpoint
CREATE TRIGGER orders_live_update AFTER UPDATE ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_live_orders_changed();
--> statement-breakpoint
-- The bell: a new item, or an item read (marked read or unread). A trigger with transition tables cannot
-- name columns (UPDATE OF read_at), so the update compares the rows: the digest's marks change no count.
CREATE FUNCTION portal_live_notices_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_live_notify('a', (SELECT string_agg(DISTINCT user_id::text, ',') FROM new_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION portal_live_notices_read() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_live_notify('a', (SELECT string_agg(DISTINCT n.user_id::text, ',')
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.read_at IS DISTINCT FROM o.read_at OR n.user_id IS DISTINCT FROM o.user_id));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_live_insert AFTER INSERT ON notifications REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_live_notices_added();
--> statement-breakpoint
CREATE TRIGGER notifications_live_update AFTER UPDATE ON notifications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_live_notices_read();
