// Data access for single sign-on: the links of OpenID identities to users, and teams' "SSO only" setting.
// Parameterised SQL only.
import type { Queryable, TeamRow } from './repository';

export interface SsoIdentityRow {
  issuer: string;
  subject: string;
  user_id: string;
  email: string;
}

export async function findIdentity(
  db: Queryable,
  issuer: string,
  subject: string,
): Promise<SsoIdentityRow | null> {
  const { rows } = await db.query<SsoIdentityRow>(
    `SELECT issuer, subject, user_id, email FROM accounts.sso_identities WHERE issuer = $1 AND subject = $2`,
    [issuer, subject],
  );
  return rows[0] ?? null;
}

export async function findIdentityOfUser(
  db: Queryable,
  userId: string,
  issuer: string,
): Promise<SsoIdentityRow | null> {
  const { rows } = await db.query<SsoIdentityRow>(
    `SELECT issuer, subject, user_id, email FROM accounts.sso_identities WHERE user_id = $1 AND issuer = $2`,
    [userId, issuer],
  );
  return rows[0] ?? null;
}

export async function insertIdentity(db: Queryable, identity: SsoIdentityRow): Promise<void> {
  await db.query(
    `INSERT INTO accounts.sso_identities (issuer, subject, user_id, email) VALUES ($1, $2, $3, $4)`,
    [identity.issuer, identity.subject, identity.user_id, identity.email],
  );
}

/** A link whose user was deleted signs nobody in; it goes, so the identity can be linked anew. */
export async function deleteIdentity(db: Queryable, issuer: string, subject: string): Promise<void> {
  await db.query(`DELETE FROM accounts.sso_identities WHERE issuer = $1 AND subject = $2`, [issuer, subject]);
}

export async function touchIdentity(db: Queryable, issuer: string, subject: string, email: string) {
  await db.query(
    `UPDATE accounts.sso_identities SET last_sign_in_at = now(), email = $3 WHERE issuer = $1 AND subject = $2`,
    [issuer, subject, email],
  );
}

export async function updateTeamSsoOnly(db: Queryable, teamId: string, ssoOnly: boolean): Promise<TeamRow> {
  const { rows } = await db.query<TeamRow>(
    `UPDATE accounts.teams SET sso_only = $2 WHERE id = $1 RETURNING *`,
    [teamId, ssoOnly],
  );
  return rows[0]!;
}

/** The live teams of a user that sign in with single sign-on only, by slug. */
export async function ssoOnlyTeamsOfUser(
  db: Queryable,
  userId: string,
): Promise<{ slug: string; name: string }[]> {
  const { rows } = await db.query<{ slug: string; name: string }>(
    `SELECT t.slug, t.name FROM accounts.memberships m
       JOIN accounts.teams t ON t.id = m.team_id AND t.deleted_at IS NULL
     WHERE m.user_id = $1 AND t.sso_only ORDER BY t.slug`,
    [userId],
  );
  return rows;
}

/**
 * Ends the web sessions of the team's members that did not come from single sign-on, except the one whose
 * id hashes to `keepHash` (the acting owner's); how many ended.
 */
export async function endSessionsWithoutSso(
  db: Queryable,
  teamId: string,
  keepHash: string,
): Promise<number> {
  const result = await db.query(
    `DELETE FROM accounts.sessions s USING accounts.memberships m
      WHERE m.team_id = $1 AND m.user_id = s.user_id AND s.method <> 'sso' AND s.id_hash <> $2`,
    [teamId, keepHash],
  );
  return result.rowCount ?? 0;
}
