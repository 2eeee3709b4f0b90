-- Up Migration

-- One row per proposal. `patch` is the normalised and validated patch as it was sent (applied later to
-- the diagram as it is then). `state` is the stored state: a pending row past `expires_at` reads as
-- expired at once, and the sweeper stores `expired` (and announces it) shortly after.
CREATE TABLE proposals (
  uuid uuid PRIMARY KEY,
  diagram_uuid uuid NOT NULL,
  team_id uuid NOT NULL,
  author_user_id uuid NOT NULL,
  patch jsonb NOT NULL,
  counts jsonb NOT NULL,
  title text NOT NULL,
  message text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'applied', 'declined', 'expired')),
  opened_at timestamptz,
  applied_at timestamptz,
  applied_version_uuid uuid,
  declined_at timestamptz,
  decline_reason text CHECK (decline_reason IS NULL OR char_length(decline_reason) <= 500),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE INDEX proposals_diagram ON proposals (diagram_uuid, created_at DESC, uuid DESC);
CREATE INDEX proposals_pending_expiry ON proposals (expires_at) WHERE state = 'pending';

-- Down Migration

DROP TABLE proposals;
