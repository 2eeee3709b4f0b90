-- Up Migration
-- Single sign-on: which OpenID identity (issuer and subject, the provider's stable id of a person) signs
-- in which user. A user has at most one identity per issuer; an identity belongs to one user.
CREATE TABLE sso_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id),
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject),
  UNIQUE (user_id, issuer)
);

-- A team whose members sign in to the web app with single sign-on only (their API tokens keep working).
ALTER TABLE teams ADD COLUMN sso_only boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE teams DROP COLUMN sso_only;
DROP TABLE sso_identities;
