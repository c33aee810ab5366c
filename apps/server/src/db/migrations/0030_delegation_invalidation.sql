-- The people an authorizer acts for today (their delegators, decision 0053) are kept with the session in the
-- principal cache (decision 0080): every change that can move them is announced on 'portal_principal' as the
-- delegate ('u:<ids>'), like the changes of 0021 and 0024 — a delegation written, moved or ended (old and new
-- delegate), and any change to a delegator's own row (its role, client or activo decide whether the
-- delegation counts), which now also names the users who stand in for the changed ones.
CREATE FUNCTION portal_principal_delegations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT string_agg(DISTINCT delegate_id::text, ',') INTO ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT string_agg(DISTINCT delegate_id::text, ',') INTO ids FROM old_rows;
  ELSE
    SELECT string_agg(DISTINCT u::text, ',') INTO ids
      FROM (SELECT delegate_id AS u FROM old_rows UNION SELECT delegate_id FROM new_rows) AS changed;
  END IF;
  PERFORM portal_principal_notify('u', ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER delegations_principal_insert AFTER INSERT ON delegations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_delegations_changed();
--> statement-breakpoint
CREATE TRIGGER delegations_principal_update AFTER UPDATE ON delegations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_delegations_changed();
--> statement-breakpoint
CREATE TRIGGER delegations_principal_delete AFTER DELETE ON delegations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_delegations_changed();
--> statement-breakpoint
CREATE TRIGGER delegations_principal_truncate AFTER TRUNCATE ON delegations
  FOR EACH STATEMENT EXECUTE FUNCTION portal_principal_truncated();
--> statement-breakpoint
-- A changed user, and whoever stands in for them (delegations.delegator_id is the table's primary key).
CREATE OR REPLACE FUNCTION portal_principal_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_principal_notify('u', (
    SELECT string_agg(DISTINCT u::text, ',')
      FROM (SELECT id AS u FROM old_rows
            UNION SELECT d.delegate_id FROM delegations d JOIN old_rows o ON o.id = d.delegator_id) AS changed
  ));
  RETURN NULL;
END
$$;
