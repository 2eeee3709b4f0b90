-- Up Migration

-- What a DDL import skipped or changed: {"total": n, "items": [{line, column, code, message, statement}…]}
-- with at most 100 items; null for diagrams that were not imported from DDL (read as no warnings).
ALTER TABLE diagrams ADD COLUMN import_warnings jsonb;

-- Down Migration
ALTER TABLE diagrams DROP COLUMN import_warnings;
