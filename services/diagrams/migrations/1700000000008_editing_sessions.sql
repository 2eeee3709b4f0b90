-- Up Migration

-- Editing sessions: consecutive `editor` saves of one person amend the diagram's newest version instead
-- of adding one per edit. Each save still writes its own row (so a save made on an older one can be
-- rebased from that row's document), and the row it amends points to it through superseded_by: History,
-- version numbers and version reads see only rows that are not superseded. session_started_at is the
-- time of the session's first save (the amend window is measured from it).
ALTER TABLE diagram_versions ADD COLUMN superseded_by uuid, ADD COLUMN session_started_at timestamptz;
CREATE INDEX diagram_versions_visible ON diagram_versions (diagram_uuid, created_at DESC)
  WHERE superseded_by IS NULL;

-- Down Migration
DROP INDEX diagram_versions_visible;
ALTER TABLE diagram_versions DROP COLUMN session_started_at, DROP COLUMN superseded_by;
