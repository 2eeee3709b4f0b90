// Plans are configuration: one JSON file (plans.json beside package.json, or DSS_PLANS_FILE) maps each
// plan name to its API access and caps. A null cap is unlimited.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ServiceError } from '@dss/platform';

export interface Plan {
  name: string;
  api_access: boolean;
  max_tables_per_diagram: number | null;
  max_private_diagrams: number | null;
}

export type PlanTable = ReadonlyMap<string, Plan>;

export const DEFAULT_PLANS_FILE = path.resolve(__dirname, '../plans.json');

export function loadPlans(file: string = DEFAULT_PLANS_FILE): PlanTable {
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new Error(`${file}: plans must be an object`);
  const plans = new Map<string, Plan>();
  for (const [name, value] of Object.entries(raw)) plans.set(name, parsePlan(file, name, value));
  if (plans.size === 0) throw new Error(`${file}: no plans defined`);
  return plans;
}

function parsePlan(file: string, name: string, value: unknown): Plan {
  const entry = value as Record<string, unknown>;
  const cap = (key: string): number | null => {
    const cap = entry?.[key];
    if (cap === null) return null;
    if (typeof cap === 'number' && Number.isInteger(cap) && cap >= 0) return cap;
    throw new Error(`${file}: plan "${name}" needs ${key} as a non-negative integer or null`);
  };
  if (typeof entry?.api_access !== 'boolean') throw new Error(`${file}: plan "${name}" needs api_access`);
  return {
    name,
    api_access: entry.api_access,
    max_tables_per_diagram: cap('max_tables_per_diagram'),
    max_private_diagrams: cap('max_private_diagrams'),
  };
}

export function requirePlan(plans: PlanTable, name: string): Plan {
  const plan = plans.get(name);
  if (!plan) {
    throw new ServiceError(
      'invalid_request',
      `unknown plan "${name}"; one of: ${[...plans.keys()].join(', ')}`,
    );
  }
  return plan;
}

/** Caps as the proto's PlanCaps: an unlimited cap is left unset. */
export function planCaps(plan: Plan): { max_tables_per_diagram?: number; max_private_diagrams?: number } {
  const caps: { max_tables_per_diagram?: number; max_private_diagrams?: number } = {};
  if (plan.max_tables_per_diagram !== null) caps.max_tables_per_diagram = plan.max_tables_per_diagram;
  if (plan.max_private_diagrams !== null) caps.max_private_diagrams = plan.max_private_diagrams;
  return caps;
}
