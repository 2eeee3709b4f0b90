-- Up Migration
-- The audit log: who did what to which thing of which team, when, from where, in which request. Entries
-- arrive from every service's outbox (subject audit.recorded) and are only ever added: the application's
-- role may INSERT and SELECT. Privileges alone do not bind the table's owner (and the services connect as
-- the owner in most deployments), so triggers refuse UPDATE always and DELETE and TRUNCATE unless the one
-- retention path, purge_audit_events(), is running in the same transaction.
CREATE TABLE audit_events (
  id uuid PRIMARY KEY,
  action text NOT NULL CHECK (action ~ '^[a-z_]+(\.[a-z_]+)+$'),
  team_id uuid,
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'token', 'system', 'anonymous')),
  actor_id uuid,
  actor_user_id uuid,
  target_kind text NOT NULL,
  target_id text,
  target_name text,
  created_at timestamptz NOT NULL,
  -- When accounts stored it; the cursor orders by this sequence, so a page never misses an entry that
  -- arrives late from another service's outbox.
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  request_id text,
  ip text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_events_team ON audit_events (team_id, seq DESC);
CREATE INDEX audit_events_created ON audit_events (created_at);

REVOKE UPDATE, DELETE, TRUNCATE ON audit_events FROM PUBLIC;

CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'audit events are append-only: UPDATE is not allowed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF coalesce(current_setting('dss.audit_purge', true), '') <> 'on' THEN
    RAISE EXCEPTION 'audit events are append-only: % is allowed only to purge_audit_events()', TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();

-- Retention: removes entries older than retention_days (at least 1), and nothing else. The flag it sets
-- lives only until the end of its own transaction (set_config(..., true)), so no other statement of the
-- application ever runs with it. SECURITY DEFINER: a separate application role that may only SELECT and
-- INSERT can be granted EXECUTE on this function and purge through it, never otherwise.
CREATE FUNCTION purge_audit_events(retention_days integer) RETURNS integer LANGUAGE plpgsql
  SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  removed integer;
BEGIN
  IF retention_days IS NULL OR retention_days < 1 THEN
    RAISE EXCEPTION 'retention_days must be at least 1';
  END IF;
  PERFORM set_config('dss.audit_purge', 'on', true);
  DELETE FROM audit_events WHERE created_at < now() - make_interval(days => retention_days);
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('dss.audit_purge', 'off', true);
  RETURN removed;
END;
$$;
REVOKE EXECUTE ON FUNCTION purge_audit_events(integer) FROM PUBLIC;

-- Down Migration
DROP FUNCTION purge_audit_events(integer);
DROP TABLE audit_events;
DROP FUNCTION audit_events_refuse_change();
