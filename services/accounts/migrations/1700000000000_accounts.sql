-- Up Migration
CREATE TABLE teams (
  id uuid PRIMARY KEY,
  slug text NOT NULL,
  name text NOT NULL,
  plan text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Teams are deleted softly so that their tokens answer invalid_token rather than vanish.
  deleted_at timestamptz
);
CREATE UNIQUE INDEX teams_live_slug ON teams (slug) WHERE deleted_at IS NULL;

CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  password_hash text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

CREATE TABLE memberships (
  team_id uuid NOT NULL REFERENCES teams (id),
  user_id uuid NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE tokens (
  id uuid PRIMARY KEY,
  team_id uuid NOT NULL REFERENCES teams (id),
  user_id uuid NOT NULL REFERENCES users (id),
  name text NOT NULL,
  token_hash text NOT NULL,
  write boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX tokens_team_user ON tokens (team_id, user_id);

-- Down Migration
DROP TABLE tokens;
DROP TABLE memberships;
DROP TABLE users;
DROP TABLE teams;
