-- The principal cache's invalidation (decision 0071): every change to a row the session guard keeps in memory
-- (users, clients, their access weeks, sessions) is announced on the channel 'portal_principal' by a trigger,
-- in the changing transaction; PostgreSQL delivers it to every listening connection at commit, never before.
-- Payload: 'u:<user ids>', 'c:<client ids>' (a client or its weeks), 's:<session ids>', or '*' (everything).
CREATE FUNCTION portal_principal_notify(kind text, ids text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR ids = '' THEN
    RETURN;
  END IF;
  -- A notification's payload must stay under 8000 bytes: a change to very many rows drops everything.
  IF length(ids) > 7000 THEN
    PERFORM pg_notify('portal_principal', '*');
  ELSE
    PERFORM pg_notify('portal_principal', kind || ':' || ids);
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION portal_principal_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_principal_notify('u', (SELECT string_agg(DISTINCT id::text, ',') FROM old_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_principal_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_users_changed();
--> statement-breakpoint
CREATE TRIGGER users_principal_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_users_changed();
--> statement-breakpoint
CREATE FUNCTION portal_principal_clients_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_principal_notify('c', (SELECT string_agg(DISTINCT id::text, ',') FROM old_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER clients_principal_update AFTER UPDATE ON clients REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_clients_changed();
--> statement-breakpoint
CREATE TRIGGER clients_principal_delete AFTER DELETE ON clients REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_clients_changed();
--> statement-breakpoint
-- A week added, edited or removed changes its client's access state (and an edit may move it between clients).
CREATE FUNCTION portal_principal_weeks_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT string_agg(DISTINCT id_cliente::text, ',') INTO ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
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
CREATE TRIGGER weeks_principal_insert AFTER INSERT ON weeks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_weeks_changed();
--> statement-breakpoint
CREATE TRIGGER weeks_principal_update AFTER UPDATE ON weeks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_weeks_changed();
--> statement-breakpoint
CREATE TRIGGER weeks_principal_delete AFTER DELETE ON weeks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_weeks_changed();
--> statement-breakpoint
-- Sessions: a removed one (sign-out, expiry, every session of a user or a client ended) by its id, or by its
-- users when there are many; an edited one unless only its sliding expiry (last_seen_at) moved.
CREATE FUNCTION portal_principal_sessions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM old_rows) <= 100 THEN
    PERFORM portal_principal_notify('s', (SELECT string_agg(id, ',') FROM old_rows));
  ELSE
    PERFORM portal_principal_notify('u', (SELECT string_agg(DISTINCT user_id::text, ',') FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_principal_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_sessions_deleted();
--> statement-breakpoint
CREATE FUNCTION portal_principal_session_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_principal_notify('s', OLD.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_principal_update AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.xsrf_token IS DISTINCT FROM NEW.xsrf_token OR OLD.stage IS DISTINCT FROM NEW.stage
    OR OLD.failed_codes IS DISTINCT FROM NEW.failed_codes OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
  EXECUTE FUNCTION portal_principal_session_updated();
--> statement-breakpoint
CREATE FUNCTION portal_principal_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_principal', '*');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_principal_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_truncated();
--> statement-breakpoint
CREATE TRIGGER clients_principal_truncate AFTER TRUNCATE ON clients
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_truncated();
--> statement-breakpoint
CREATE TRIGGER weeks_principal_truncate AFTER TRUNCATE ON weeks
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_truncated();
--> statement-breakpoint
CREATE TRIGGER sessions_principal_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_truncated();
