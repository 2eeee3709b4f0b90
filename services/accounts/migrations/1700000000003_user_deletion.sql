-- Up Migration
-- Users are deleted softly: proposals and versions keep naming their author, while the email becomes
-- free for a new account and nothing about the deleted user can sign in or authenticate.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
DROP INDEX users_email;
CREATE UNIQUE INDEX users_live_email ON users (lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX memberships_team ON memberships (team_id);

-- Down Migration
DROP INDEX memberships_team;
DROP INDEX users_live_email;
DELETE FROM users WHERE deleted_at IS NOT NULL;
CREATE UNIQUE INDEX users_email ON users (lower(email));
ALTER TABLE users DROP COLUMN deleted_at;
