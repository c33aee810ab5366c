-- A user moved from one client to another bumps both clients' buyer versions (decision 0088). Bumped old
-- first, then new, two moves in opposite directions at once (a→b and b→a) each held one version row and
-- waited for the other: a deadlock, seen in the kept-counts test's concurrent steps. Both are now bumped in
-- the clients' id order: two such moves now wait for each other instead.
CREATE OR REPLACE FUNCTION "portal_buyer_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."id_cliente" IS NOT NULL AND NEW."id_cliente" IS NOT NULL
    AND OLD."id_cliente" <> NEW."id_cliente" THEN
    PERFORM "portal_bump_buyer_version"(least(OLD."id_cliente", NEW."id_cliente"));
    PERFORM "portal_bump_buyer_version"(greatest(OLD."id_cliente", NEW."id_cliente"));
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."id_cliente" IS NOT NULL THEN
    PERFORM "portal_bump_buyer_version"(OLD."id_cliente");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."id_cliente" IS NOT NULL
    AND (TG_OP = 'INSERT' OR NEW."id_cliente" IS DISTINCT FROM OLD."id_cliente") THEN
    PERFORM "portal_bump_buyer_version"(NEW."id_cliente");
  END IF;
  RETURN NULL;
END;
$$;
