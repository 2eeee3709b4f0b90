-- Up Migration
-- How each web session signed in (password, sso or invitation): a team that signs in with single
-- sign-on only accepts new API tokens from sso sessions alone, and turning the setting on ends the others.
-- Sessions from before this migration count as password sessions.
ALTER TABLE sessions
  ADD COLUMN method text NOT NULL DEFAULT 'password' CHECK (method IN ('password', 'sso', 'invitation'));

-- Down Migration
ALTER TABLE sessions DROP COLUMN method;
