// Data access for lint: a team's saved settings. Parameterised SQL only, in the proposals schema.
import type { Queryable } from './repository';

export interface LintSettingsRow {
  settings: unknown;
  updated_at: Date;
}

export async function findLintSettings(db: Queryable, teamId: string): Promise<LintSettingsRow | null> {
  const { rows } = await db.query<LintSettingsRow>(
    'SELECT settings, updated_at FROM proposals.lint_settings WHERE team_id = $1',
    [teamId],
  );
  return rows[0] ?? null;
}

export async function saveLintSettings(
  db: Queryable,
  teamId: string,
  userId: string,
  settings: unknown,
): Promise<LintSettingsRow> {
  const { rows } = await db.query<LintSettingsRow>(
    `INSERT INTO proposals.lint_settings (team_id, settings, updated_by_user_id, updated_at)
     VALUES ($1, $2::jsonb, $3, clock_timestamp())
     ON CONFLICT (team_id) DO UPDATE
       SET settings = EXCLUDED.settings, updated_by_user_id = EXCLUDED.updated_by_user_id,
           updated_at = EXCLUDED.updated_at
     RETURNING settings, updated_at`,
    [teamId, JSON.stringify(settings), userId],
  );
  return rows[0]!;
}
