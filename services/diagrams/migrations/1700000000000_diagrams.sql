-- Up Migration

-- One row per diagram. Every diagram made through the API is private (`private` is always true).
-- team_slug and team_name are the team as the creating call named it; answers to a caller use the
-- caller's current team names instead.
CREATE TABLE diagrams (
  uuid uuid PRIMARY KEY,
  team_id uuid NOT NULL,
  team_slug text NOT NULL,
  team_name text NOT NULL,
  name text NOT NULL,
  slug text NOT NULL,
  description text,
  driver text NOT NULL CHECK (driver IN ('mysql', 'pgsql', 'sqlsrv')),
  status text NOT NULL CHECK (status IN ('ready', 'importing', 'failed')),
  error_code text,
  error_message text,
  table_count integer,
  private boolean NOT NULL DEFAULT true CHECK (private),
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  current_version_uuid uuid
);
CREATE INDEX diagrams_team_updated ON diagrams (team_id, updated_at DESC, uuid DESC);

-- Append-only: every value updated_at has ever had, written in the transaction of the change. Lists page
-- through a snapshot ("each diagram's updated_at as of time S"), which this table answers.
CREATE TABLE diagram_update_times (
  diagram_uuid uuid NOT NULL REFERENCES diagrams (uuid),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (diagram_uuid, updated_at)
);

-- The current document and its precomputed representations: the exact bytes served and their ETags.
CREATE TABLE diagram_contents (
  diagram_uuid uuid PRIMARY KEY REFERENCES diagrams (uuid),
  document jsonb NOT NULL,
  schema_json text NOT NULL,
  schema_json_etag text NOT NULL,
  markdown_detailed text NOT NULL,
  markdown_detailed_etag text NOT NULL,
  markdown_simple text NOT NULL,
  markdown_simple_etag text NOT NULL,
  full_document_json text NOT NULL,
  full_document_etag text NOT NULL
);

-- Version history: one row per change, with the document as it was after the change.
CREATE TABLE diagram_versions (
  uuid uuid PRIMARY KEY,
  diagram_uuid uuid NOT NULL REFERENCES diagrams (uuid),
  author_user_id uuid NOT NULL,
  source text NOT NULL CHECK (source IN ('create', 'import', 'apply')),
  -- For `apply`: who asked for it (proposal, api).
  source_kind text,
  -- create: the token id; import: the job id; apply: e.g. the proposal id.
  source_id text NOT NULL,
  created_at timestamptz NOT NULL,
  document jsonb NOT NULL
);
CREATE INDEX diagram_versions_diagram ON diagram_versions (diagram_uuid, created_at DESC);

-- Create-replay records: an identical create (same key) inside the window returns this diagram.
CREATE TABLE create_replays (
  key text NOT NULL,
  diagram_uuid uuid NOT NULL REFERENCES diagrams (uuid),
  -- The create response's counts (null until a DDL import has finished) and warnings.
  counts jsonb,
  warnings jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- End of the window; null while a DDL import runs (the window is the import plus the window length).
  expires_at timestamptz,
  PRIMARY KEY (key, diagram_uuid)
);
CREATE INDEX create_replays_recent ON create_replays (key, created_at DESC);

-- Down Migration
DROP TABLE create_replays;
DROP TABLE diagram_versions;
DROP TABLE diagram_contents;
DROP TABLE diagram_update_times;
DROP TABLE diagrams;
