-- Up Migration

-- The import job of a diagram created from DDL: CompleteImport changes only an importing diagram whose
-- job id it names, so a repeated or stale completion changes nothing.
ALTER TABLE diagrams ADD COLUMN import_job_id uuid;

-- Down Migration
ALTER TABLE diagrams DROP COLUMN import_job_id;
