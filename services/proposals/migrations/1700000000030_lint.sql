-- Up Migration
-- Lint findings of the proposed schema, computed when the proposal is created (the diagram then, the team's
-- rules then), so the counts on the status and the list of GET /proposals/{uuid}/lint always agree.
ALTER TABLE proposals ADD COLUMN lint jsonb NOT NULL DEFAULT '[]'::jsonb;

-- A team's lint settings: review policy, read when a proposal is created and applied. A team that never
-- saved any has no row and gets the defaults.
CREATE TABLE lint_settings (
  team_id uuid PRIMARY KEY,
  settings jsonb NOT NULL,
  updated_by_user_id uuid NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE lint_settings;
ALTER TABLE proposals DROP COLUMN lint;
