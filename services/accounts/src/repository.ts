// Data access of the accounts context. Parameterised SQL only; every table lives in the `accounts`
// schema and no other service reads it.
import type { Pool, PoolClient } from 'pg';

export const SCHEMA = 'accounts';

export type Queryable = Pool | PoolClient;

export interface TeamRow {
  id: string;
  slug: string;
  name: string;
  plan: string;
  sso_only: boolean;
  created_at: Date;
  deleted_at: Date | null;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: Date;
  deleted_at: Date | null;
}

export interface MembershipRow {
  team_id: string;
  team_slug: string;
  team_name: string;
  team_plan: string;
  user_id: string;
  user_email: string;
  role: 'owner' | 'editor' | 'viewer';
  created_at: Date;
}

export interface TokenRow {
  id: string;
  team_id: string;
  team_slug: string;
  user_id: string;
  user_email: string;
  name: string;
  token_hash: string;
  write: boolean;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Everything Authenticate needs about a token, in one round trip. */
export interface TokenSubject extends TokenRow {
  team_name: string;
  team_plan: string;
  team_deleted_at: Date | null;
  user_name: string;
  role: MembershipRow['role'] | null;
}

const MEMBERSHIP_COLUMNS = `m.team_id, t.slug AS team_slug, t.name AS team_name, t.plan AS team_plan, m.user_id,
  u.email AS user_email, m.role, m.created_at`;
const TOKEN_COLUMNS = `k.id, k.team_id, t.slug AS team_slug, k.user_id, u.email AS user_email, k.name, k.token_hash,
  k.write, k.created_at, k.expires_at, k.last_used_at, k.revoked_at`;

export async function insertTeam(db: Queryable, team: Pick<TeamRow, 'id' | 'slug' | 'name' | 'plan'>) {
  const { rows } = await db.query<TeamRow>(
    `INSERT INTO accounts.teams (id, slug, name, plan) VALUES ($1, $2, $3, $4) RETURNING *`,
    [team.id, team.slug, team.name, team.plan],
  );
  return rows[0]!;
}

export async function findLiveTeamBySlug(db: Queryable, slug: string): Promise<TeamRow | null> {
  const { rows } = await db.query<TeamRow>(
    `SELECT * FROM accounts.teams WHERE slug = $1 AND deleted_at IS NULL`,
    [slug],
  );
  return rows[0] ?? null;
}

export async function findLiveTeamById(db: Queryable, id: string): Promise<TeamRow | null> {
  const { rows } = await db.query<TeamRow>(
    `SELECT * FROM accounts.teams WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0] ?? null;
}

export async function updateTeamPlan(db: Queryable, id: string, plan: string): Promise<TeamRow> {
  const { rows } = await db.query<TeamRow>(`UPDATE accounts.teams SET plan = $2 WHERE id = $1 RETURNING *`, [
    id,
    plan,
  ]);
  return rows[0]!;
}

export async function markTeamDeleted(db: Queryable, id: string): Promise<TeamRow> {
  const { rows } = await db.query<TeamRow>(
    `UPDATE accounts.teams SET deleted_at = now() WHERE id = $1 RETURNING *`,
    [id],
  );
  return rows[0]!;
}

export async function insertUser(
  db: Queryable,
  user: Omit<UserRow, 'created_at' | 'deleted_at'>,
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO accounts.users (id, email, name, password_hash) VALUES ($1, $2, $3, $4) RETURNING *`,
    [user.id, user.email, user.name, user.password_hash],
  );
  return rows[0]!;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT * FROM accounts.users WHERE lower(email) = lower($1) AND deleted_at IS NULL`,
    [email],
  );
  return rows[0] ?? null;
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`SELECT * FROM accounts.users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Live teams by slug. */
export async function listLiveTeams(db: Queryable): Promise<TeamRow[]> {
  const { rows } = await db.query<TeamRow>(
    `SELECT * FROM accounts.teams WHERE deleted_at IS NULL ORDER BY slug LIMIT 10000`,
  );
  return rows;
}

/** Live users by email; with a team, its members only. */
export async function listLiveUsers(db: Queryable, teamId: string | null): Promise<UserRow[]> {
  const { rows } = await db.query<UserRow>(
    `SELECT u.* FROM accounts.users u
     WHERE u.deleted_at IS NULL
       AND ($1::uuid IS NULL OR EXISTS (
         SELECT 1 FROM accounts.memberships m WHERE m.team_id = $1 AND m.user_id = u.id))
     ORDER BY lower(u.email) LIMIT 10000`,
    [teamId],
  );
  return rows;
}

export async function updatePasswordHash(
  db: Queryable,
  userId: string,
  passwordHash: string,
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `UPDATE accounts.users SET password_hash = $2 WHERE id = $1 RETURNING *`,
    [userId, passwordHash],
  );
  return rows[0]!;
}

export async function deleteSessionsOfUser(db: Queryable, userId: string): Promise<void> {
  await db.query(`DELETE FROM accounts.sessions WHERE user_id = $1`, [userId]);
}

/** Marks a user deleted and returns the teams they were a member of (before their memberships go). */
export async function markUserDeleted(
  db: Queryable,
  userId: string,
): Promise<{ teamIds: string[]; tokenIds: string[] }> {
  await db.query(`UPDATE accounts.users SET deleted_at = now(), password_hash = NULL WHERE id = $1`, [
    userId,
  ]);
  const memberships = await db.query<{ team_id: string }>(
    `DELETE FROM accounts.memberships WHERE user_id = $1 RETURNING team_id`,
    [userId],
  );
  const tokens = await db.query<{ id: string }>(
    `UPDATE accounts.tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING id`,
    [userId],
  );
  await deleteSessionsOfUser(db, userId);
  return { teamIds: memberships.rows.map((r) => r.team_id), tokenIds: tokens.rows.map((r) => r.id) };
}

export async function listMembersOfTeam(db: Queryable, teamId: string): Promise<MembershipRow[]> {
  const { rows } = await db.query<MembershipRow>(
    `SELECT ${MEMBERSHIP_COLUMNS} FROM accounts.memberships m
       JOIN accounts.teams t ON t.id = m.team_id AND t.deleted_at IS NULL
       JOIN accounts.users u ON u.id = m.user_id
     WHERE m.team_id = $1 ORDER BY lower(u.email) LIMIT 10000`,
    [teamId],
  );
  return rows;
}

export async function upsertMembership(db: Queryable, teamId: string, userId: string, role: string) {
  await db.query(
    `INSERT INTO accounts.memberships (team_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
    [teamId, userId, role],
  );
}

export async function deleteMembership(db: Queryable, teamId: string, userId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM accounts.memberships WHERE team_id = $1 AND user_id = $2`,
    [teamId, userId],
  );
  return (rowCount ?? 0) > 0;
}

export async function findMembership(
  db: Queryable,
  teamId: string,
  userId: string,
): Promise<MembershipRow | null> {
  const { rows } = await db.query<MembershipRow>(
    `SELECT ${MEMBERSHIP_COLUMNS} FROM accounts.memberships m
       JOIN accounts.teams t ON t.id = m.team_id AND t.deleted_at IS NULL
       JOIN accounts.users u ON u.id = m.user_id
     WHERE m.team_id = $1 AND m.user_id = $2`,
    [teamId, userId],
  );
  return rows[0] ?? null;
}

export async function listMembershipsOfUser(db: Queryable, userId: string): Promise<MembershipRow[]> {
  const { rows } = await db.query<MembershipRow>(
    `SELECT ${MEMBERSHIP_COLUMNS} FROM accounts.memberships m
       JOIN accounts.teams t ON t.id = m.team_id AND t.deleted_at IS NULL
       JOIN accounts.users u ON u.id = m.user_id
     WHERE m.user_id = $1 ORDER BY t.slug`,
    [userId],
  );
  return rows;
}

export async function insertToken(
  db: Queryable,
  token: Pick<TokenRow, 'id' | 'team_id' | 'user_id' | 'name' | 'token_hash' | 'write' | 'expires_at'>,
): Promise<void> {
  await db.query(
    `INSERT INTO accounts.tokens (id, team_id, user_id, name, token_hash, write, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [token.id, token.team_id, token.user_id, token.name, token.token_hash, token.write, token.expires_at],
  );
}

export async function findToken(db: Queryable, id: string): Promise<TokenRow | null> {
  const { rows } = await db.query<TokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM accounts.tokens k
       JOIN accounts.teams t ON t.id = k.team_id JOIN accounts.users u ON u.id = k.user_id
     WHERE k.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findTokenSubject(db: Queryable, id: string): Promise<TokenSubject | null> {
  const { rows } = await db.query<TokenSubject>(
    `SELECT ${TOKEN_COLUMNS}, t.name AS team_name, t.plan AS team_plan, t.deleted_at AS team_deleted_at,
            u.name AS user_name, m.role
       FROM accounts.tokens k
       JOIN accounts.teams t ON t.id = k.team_id
       JOIN accounts.users u ON u.id = k.user_id
       LEFT JOIN accounts.memberships m ON m.team_id = k.team_id AND m.user_id = k.user_id
     WHERE k.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** A user's tokens in a team, or (userId null) every token of the team. */
export async function listTokens(db: Queryable, teamId: string, userId: string | null): Promise<TokenRow[]> {
  const { rows } = await db.query<TokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM accounts.tokens k
       JOIN accounts.teams t ON t.id = k.team_id JOIN accounts.users u ON u.id = k.user_id
     WHERE k.team_id = $1 AND ($2::uuid IS NULL OR k.user_id = $2)
     ORDER BY k.created_at DESC, k.id LIMIT 10000`,
    [teamId, userId],
  );
  return rows;
}

export async function markTokenRevoked(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE accounts.tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1`, [id]);
}

/** Records use at most once a minute per token, so authentication stays a read on the hot path. */
export async function touchTokenLastUsed(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE accounts.tokens SET last_used_at = now()
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [id],
  );
}

export type SessionMethod = 'password' | 'sso' | 'invitation';

export interface SessionRow {
  user_id: string;
  expires_at: Date;
  method: SessionMethod;
}

export async function insertSession(
  db: Queryable,
  session: { id_hash: string; user_id: string; expires_at: Date; method: SessionMethod },
): Promise<void> {
  await db.query(
    `INSERT INTO accounts.sessions (id_hash, user_id, expires_at, method) VALUES ($1, $2, $3, $4)`,
    [session.id_hash, session.user_id, session.expires_at, session.method],
  );
}

/** A live session: not expired at `now`. */
export async function findLiveSession(db: Queryable, idHash: string, now: Date): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT user_id, expires_at, method FROM accounts.sessions WHERE id_hash = $1 AND expires_at > $2`,
    [idHash, now],
  );
  return rows[0] ?? null;
}

export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.query(`DELETE FROM accounts.sessions WHERE id_hash = $1`, [idHash]);
}

/** Sessions past their expiry are of no use; they are removed when new ones are made. */
export async function deleteExpiredSessions(db: Queryable, now: Date): Promise<void> {
  await db.query(`DELETE FROM accounts.sessions WHERE expires_at <= $1`, [now]);
}
