// Data access for invitation and password-reset links. Parameterised SQL only; only secret hashes stored.
import type { Queryable } from './repository';

export interface InvitationRow {
  id: string;
  team_id: string;
  team_slug: string;
  team_name: string;
  email: string;
  role: 'owner' | 'editor' | 'viewer';
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  invited_by_email: string | null;
  account_exists: boolean;
  sso_only: boolean;
}

const INVITATION_SELECT = `SELECT i.id, i.team_id, t.slug AS team_slug, t.name AS team_name, i.email, i.role,
    i.created_at, i.expires_at, i.accepted_at, i.revoked_at, b.email AS invited_by_email, t.sso_only,
    EXISTS (SELECT 1 FROM accounts.users u WHERE lower(u.email) = lower(i.email) AND u.deleted_at IS NULL)
      AS account_exists
  FROM accounts.invitations i
  JOIN accounts.teams t ON t.id = i.team_id AND t.deleted_at IS NULL
  LEFT JOIN accounts.users b ON b.id = i.invited_by`;
const OPEN = `i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > $2`;

export async function insertInvitation(
  db: Queryable,
  invitation: {
    id: string;
    team_id: string;
    email: string;
    role: string;
    token_hash: string;
    invited_by: string | null;
    expires_at: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO accounts.invitations (id, team_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      invitation.id,
      invitation.team_id,
      invitation.email,
      invitation.role,
      invitation.token_hash,
      invitation.invited_by,
      invitation.expires_at,
    ],
  );
}

/** A new invitation replaces the open ones of the same address to the same team. */
export async function revokeOpenInvitationsOf(db: Queryable, teamId: string, email: string): Promise<void> {
  await db.query(
    `UPDATE accounts.invitations SET revoked_at = now()
     WHERE team_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL AND revoked_at IS NULL`,
    [teamId, email],
  );
}

export async function findInvitationById(db: Queryable, id: string): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(`${INVITATION_SELECT} WHERE i.id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findOpenInvitationByHash(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(`${INVITATION_SELECT} WHERE i.token_hash = $1 AND ${OPEN}`, [
    tokenHash,
    now,
  ]);
  return rows[0] ?? null;
}

export async function listOpenInvitations(
  db: Queryable,
  teamId: string,
  now: Date,
): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>(
    `${INVITATION_SELECT} WHERE i.team_id = $1 AND ${OPEN} ORDER BY i.created_at DESC LIMIT 1000`,
    [teamId, now],
  );
  return rows;
}

/** Marks an open invitation accepted; false when another request used it first (single use). */
export async function markInvitationAccepted(db: Queryable, id: string, now: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE accounts.invitations i SET accepted_at = $2 WHERE i.id = $1 AND ${OPEN}`,
    [id, now],
  );
  return (rowCount ?? 0) > 0;
}

export async function markInvitationRevoked(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE accounts.invitations SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1`, [
    id,
  ]);
}

export async function insertPasswordReset(
  db: Queryable,
  reset: { token_hash: string; user_id: string; expires_at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO accounts.password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`,
    [reset.token_hash, reset.user_id, reset.expires_at],
  );
}

export async function countRecentPasswordResets(db: Queryable, userId: string, since: Date): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `SELECT count(*) FROM accounts.password_resets WHERE user_id = $1 AND created_at > $2`,
    [userId, since],
  );
  return Number(rows[0]!.count);
}

/** Uses up an open reset link (and every other open link of its user); its user id, or null. */
export async function consumePasswordReset(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    `UPDATE accounts.password_resets SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`,
    [tokenHash, now],
  );
  const userId = rows[0]?.user_id ?? null;
  if (userId)
    await db.query(
      `UPDATE accounts.password_resets SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL`,
      [userId, now],
    );
  return userId;
}

export async function countOwners(db: Queryable, teamId: string): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `SELECT count(*) FROM accounts.memberships WHERE team_id = $1 AND role = 'owner'`,
    [teamId],
  );
  return Number(rows[0]!.count);
}

/** Serialises membership changes of one team, so two requests cannot each remove "another" last owner. */
export async function lockTeam(db: Queryable, teamId: string): Promise<void> {
  await db.query(`SELECT id FROM accounts.teams WHERE id = $1 FOR UPDATE`, [teamId]);
}

/** Revokes a user's live tokens in one team; their ids (for accounts.token.revoked). */
export async function revokeTokensOfMember(db: Queryable, teamId: string, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE accounts.tokens SET revoked_at = now()
     WHERE team_id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id`,
    [teamId, userId],
  );
  return rows.map((row) => row.id);
}
