// Helpers of the diagram journeys: schema patches a client would send, a run-unique suffix for team
// slugs and e-mails (a deployment behind E2E_BASE_URL keeps its data between runs), and the plan caps
// the deployment is configured with.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type ApiResponse, call } from './api';

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
export type Json = Record<string, any>;

/** A suffix unique to this run, for slugs (lowercase letters, digits and dashes). */
export function runId(): string {
  return randomBytes(4).toString('hex');
}

/** A small shop: tables deliberately not in name order, one relationship, types given as a client would. */
export function shopPatch(extra: Record<string, unknown> = {}): Json {
  return {
    strategy: 'merge',
    tables: [
      {
        name: 'orders',
        comment: 'One checkout',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true, is_auto_increment: true },
          { name: 'customer_id', type: 'bigint', is_nullable: false, is_index: true },
          { name: 'status', type: 'varchar', length: 20, default: 'new' },
          { name: 'placed_at', type: 'timestamp' },
        ],
      },
      {
        name: 'customers',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'email', type: 'varchar', length: 255, is_unique_key: true, is_nullable: false },
          { name: 'name', type: 'text' },
        ],
      },
      {
        name: 'addresses',
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'customer_id', type: 'bigint' },
          { name: 'city', type: 'text' },
        ],
      },
    ],
    relationships: [
      {
        type: 'many-to-one',
        source_table: 'orders',
        source_column: 'customer_id',
        target_table: 'customers',
        target_column: 'id',
      },
    ],
    ...extra,
  };
}

/** `count` tables of one column each, named t000, t001, … */
export function tablesPatch(count: number): Json {
  return {
    strategy: 'merge',
    tables: Array.from({ length: count }, (_, i) => ({
      name: `t${String(i).padStart(3, '0')}`,
      columns: [{ name: 'id', type: 'int', is_primary_key: true }],
    })),
  };
}

/** The caps of a plan as the repository's plans file has them (null: unlimited). */
export function planCaps(plan: string): {
  max_tables_per_diagram: number | null;
  max_private_diagrams: number | null;
} {
  const file = path.resolve(__dirname, '../../services/accounts/plans.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, never>)[plan];
}

/** POST /diagrams through the OpenAPI-validated `call`. */
export function createDiagram(baseUrl: string, token: string, body: unknown): Promise<ApiResponse> {
  return call(baseUrl, '/diagrams', { method: 'POST', token, json: body });
}
