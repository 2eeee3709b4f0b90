// The outbox table each service keeps in its own schema, and the names derived from the schema. The
// schema is an identifier, never a parameter, so it is validated and quoted before it enters SQL.

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`outbox schema must match ${SCHEMA_NAME}, got "${schema}"`);
}

/** `"schema".outbox`, safe to interpolate. */
export function outboxTable(schema: string): string {
  assertSchemaName(schema);
  return `"${schema}".outbox`;
}

/** The LISTEN/NOTIFY channel that wakes the relay when a transaction with events commits. */
export function outboxChannel(schema: string): string {
  assertSchemaName(schema);
  return `dss_outbox_${schema}`;
}

/**
 * DDL for a service migration. `position` gives the publish order (ids are UUIDs like every record id);
 * `message_id`, when the caller set one, replaces the id as the dedupe key on the bus.
 */
export function outboxTableSql(schema: string): string {
  const table = outboxTable(schema);
  return `
CREATE TABLE IF NOT EXISTS ${table} (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  position bigint GENERATED ALWAYS AS IDENTITY,
  subject text NOT NULL,
  payload jsonb NOT NULL,
  message_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS outbox_unpublished_idx ON ${table} (position) WHERE published_at IS NULL;
`;
}
