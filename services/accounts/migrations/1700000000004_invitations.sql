-- Up Migration
-- Invitations and password-reset links: only the SHA-256 of each link's secret is stored, so a copy of
-- these tables lets nobody join a team or set a password. Both are single use (accepted_at / used_at).
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams (id),
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
  token_hash text NOT NULL UNIQUE,
  invited_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX invitations_team ON invitations (team_id, created_at);

CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user ON password_resets (user_id, created_at);

-- Down Migration
DROP TABLE password_resets;
DROP TABLE invitations;
