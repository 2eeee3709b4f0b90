-- Up Migration

-- A deleted diagram stays in its team's Trash until an owner restores it or the sweeper purges it (the
-- trash period after deleted_at). While deleted_at is set every read answers not_found.
ALTER TABLE diagrams ADD COLUMN deleted_at timestamptz, ADD COLUMN deleted_by uuid;
CREATE INDEX diagrams_trash ON diagrams (team_id, deleted_at DESC) WHERE deleted_at IS NOT NULL;

-- Down Migration
DROP INDEX diagrams_trash;
ALTER TABLE diagrams DROP COLUMN deleted_by, DROP COLUMN deleted_at;
