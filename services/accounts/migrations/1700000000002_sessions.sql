-- Up Migration
-- Web sessions: only the SHA-256 of the session id is stored, so a copy of this table signs nobody in.
CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- Down Migration
DROP TABLE sessions;
