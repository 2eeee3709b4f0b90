-- The notifications context: the webhook endpoints a team's owners register, one delivery per endpoint and
-- event (the webhook-id receivers deduplicate on), and every attempt to send it (the delivery log).
CREATE TABLE notifications.endpoints (
  id uuid PRIMARY KEY,
  team_id uuid NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  secret text NOT NULL,
  -- the secret before the last rotation, still signed with until previous_secret_until (the overlap)
  previous_secret text,
  previous_secret_until timestamptz,
  -- enabled, or disabled after failing without a success for the disable window
  status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  status_notice text,
  failing_since timestamptz,
  created_by_token_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX endpoints_team ON notifications.endpoints (team_id) WHERE deleted_at IS NULL;

CREATE TABLE notifications.deliveries (
  id uuid PRIMARY KEY,
  -- order of occurrence as consumed from the bus; deliveries of one endpoint and diagram leave in this order
  seq bigserial NOT NULL UNIQUE,
  endpoint_id uuid NOT NULL REFERENCES notifications.endpoints (id) ON DELETE CASCADE,
  team_id uuid NOT NULL,
  event_key text NOT NULL,
  event_type text NOT NULL,
  ordering_key text NOT NULL,
  payload text NOT NULL,
  occurred_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- retried until this moment (24 h after the event, or after a manual redelivery)
  give_up_at timestamptz NOT NULL,
  leased_until timestamptz,
  -- an owner asked for this delivery again: its next attempt is logged as manual
  manual_requested boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  UNIQUE (endpoint_id, event_key)
);
CREATE INDEX deliveries_due ON notifications.deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_order ON notifications.deliveries (endpoint_id, ordering_key, seq) WHERE status = 'pending';
CREATE INDEX deliveries_log ON notifications.deliveries (endpoint_id, seq DESC);

CREATE TABLE notifications.attempts (
  id bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES notifications.deliveries (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  error text,
  latency_ms integer NOT NULL,
  response_excerpt text,
  manual boolean NOT NULL DEFAULT false
);
CREATE INDEX attempts_delivery ON notifications.attempts (delivery_id, id);
