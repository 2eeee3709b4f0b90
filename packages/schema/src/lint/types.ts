// The vocabulary of the lint rules: findings as the API serves them, the severities a team can choose and
// the shape of a rule. Lint is advice on a valid schema; what the database would refuse is validation's.
import type { Driver, Relationship, Table } from '../model';

export const LINT_SEVERITIES = ['error', 'warning', 'off'] as const;
export type LintSeverity = (typeof LINT_SEVERITIES)[number];

/** One finding, as `GET /v1/diagrams/{uuid}/lint` and `GET /v1/proposals/{uuid}/lint` serve it. */
export interface LintFinding {
  rule: string;
  severity: Exclude<LintSeverity, 'off'>;
  message: string;
  table: string;
  column?: string;
}

/** What a rule reports, before the configured severity is attached. */
export interface LintHit {
  message: string;
  table: string;
  column?: string;
}

/** The schema a rule looks at (a diagram document or a /schema answer will do). */
export interface LintSchema {
  driver: Driver;
  tables: Table[];
  relationships: Relationship[];
}

export const NAMING_CASES = ['snake_case', 'any'] as const;
export const TABLE_NUMBERS = ['singular', 'plural', 'any'] as const;

/** A team's lint settings (`dss.lint.json` for the CLI has the same shape). */
export interface LintConfig {
  /** Severity per rule id; a rule not named keeps its default. */
  rules: Record<string, LintSeverity>;
  naming: {
    case: (typeof NAMING_CASES)[number];
    /** Whether table names are singular (`user`), plural (`users`) or either. */
    tables: (typeof TABLE_NUMBERS)[number];
    /** A prefix every table name starts with (`app_`); empty for none. */
    prefix: string;
  };
  /** More columns than this make a table too wide. */
  max_columns: number;
  /** Parent tables whose children must not have a nullable foreign key; null means every parent. */
  required_parents: string[] | null;
  /** A proposal with lint errors cannot be applied. */
  require_no_errors: boolean;
}

export interface LintContext {
  schema: LintSchema;
  /** The schema before the change, when linting a change (a proposal, a migration); null for a diagram. */
  before: LintSchema | null;
  config: LintConfig;
}

export interface LintRule {
  id: string;
  defaultSeverity: Exclude<LintSeverity, 'off'>;
  /** One line for the rule list and the documentation. */
  documentation: string;
  check(context: LintContext): LintHit[];
}
