-- Up Migration

-- A version's label ("v2 release"), set by owners and editors; null when none.
ALTER TABLE diagram_versions ADD COLUMN label text;

-- Read-only links to a diagram (or one of its versions) that open without signing in. Only the SHA-256
-- of the token is kept, so the database never holds a working link; revoked_at ends it at once.
CREATE TABLE share_links (
  uuid uuid PRIMARY KEY,
  token_hash bytea NOT NULL UNIQUE,
  diagram_uuid uuid NOT NULL REFERENCES diagrams (uuid) ON DELETE CASCADE,
  team_id uuid NOT NULL,
  version_number integer,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX share_links_diagram ON share_links (diagram_uuid, created_at DESC);

-- Down Migration
DROP TABLE share_links;
ALTER TABLE diagram_versions DROP COLUMN label;
