-- Up Migration

-- The plan's tables-per-diagram cap of the team when a DDL create was accepted (null: no cap); checked
-- when the import completes, since the table count is unknown until then.
ALTER TABLE diagrams ADD COLUMN import_max_tables integer;

-- Down Migration
ALTER TABLE diagrams DROP COLUMN import_max_tables;
