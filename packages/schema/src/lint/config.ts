// A team's lint settings: defaults, and reading settings sent by an owner or checked in as
// `dss.lint.json`. Every key is optional; what is left out keeps its default. Unknown keys and rule ids
// are refused, so a typo never silently disables a rule.
import { LINT_RULES } from './rules';
import { type LintConfig, LINT_SEVERITIES, type LintSeverity, NAMING_CASES, TABLE_NUMBERS } from './types';

export const DEFAULT_LINT_CONFIG: LintConfig = Object.freeze({
  rules: {},
  naming: { case: 'snake_case', tables: 'any', prefix: '' },
  max_columns: 50,
  required_parents: null,
  require_no_errors: false,
}) as LintConfig;

export interface LintConfigProblem {
  path: string;
  message: string;
}

export type LintConfigResult =
  | { ok: true; config: LintConfig }
  | { ok: false; problems: LintConfigProblem[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const oneOf = (values: readonly string[]) =>
  `must be one of ${values.map((value) => `"${value}"`).join(', ')}`;

class ConfigReader {
  readonly problems: LintConfigProblem[] = [];

  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  unknownKeys(value: Record<string, unknown>, known: readonly string[], prefix: string): void {
    for (const key of Object.keys(value))
      if (!known.includes(key))
        this.problem(`${prefix}${key}`, `is not a lint setting (known: ${known.join(', ')})`);
  }

  rules(value: unknown): Record<string, LintSeverity> {
    if (value === undefined) return {};
    if (!isObject(value)) {
      this.problem('rules', 'must be an object of rule id to severity');
      return {};
    }
    const ids = LINT_RULES.map((rule) => rule.id);
    const rules: Record<string, LintSeverity> = {};
    for (const [id, severity] of Object.entries(value)) {
      if (!ids.includes(id)) this.problem(`rules.${id}`, `is not a lint rule (${oneOf(ids).slice(5)})`);
      else if (!LINT_SEVERITIES.includes(severity as LintSeverity))
        this.problem(`rules.${id}`, oneOf(LINT_SEVERITIES));
      else rules[id] = severity as LintSeverity;
    }
    return rules;
  }

  naming(value: unknown): LintConfig['naming'] {
    const naming = { ...DEFAULT_LINT_CONFIG.naming };
    if (value === undefined) return naming;
    if (!isObject(value)) {
      this.problem('naming', 'must be an object');
      return naming;
    }
    this.unknownKeys(value, ['case', 'tables', 'prefix'], 'naming.');
    if (value.case !== undefined) {
      if (NAMING_CASES.includes(value.case as never))
        naming.case = value.case as LintConfig['naming']['case'];
      else this.problem('naming.case', oneOf(NAMING_CASES));
    }
    if (value.tables !== undefined) {
      if (TABLE_NUMBERS.includes(value.tables as never))
        naming.tables = value.tables as LintConfig['naming']['tables'];
      else this.problem('naming.tables', oneOf(TABLE_NUMBERS));
    }
    if (value.prefix !== undefined) {
      if (typeof value.prefix === 'string' && value.prefix.length <= 64) naming.prefix = value.prefix;
      else this.problem('naming.prefix', 'must be a string of at most 64 characters');
    }
    return naming;
  }

  maxColumns(value: unknown): number {
    if (value === undefined) return DEFAULT_LINT_CONFIG.max_columns;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 10_000) return value;
    this.problem('max_columns', 'must be a whole number from 1 to 10000');
    return DEFAULT_LINT_CONFIG.max_columns;
  }

  requiredParents(value: unknown): string[] | null {
    if (value === undefined || value === null) return null;
    if (Array.isArray(value) && value.length <= 1000 && value.every((name) => typeof name === 'string'))
      return [...value];
    this.problem('required_parents', 'must be null (every parent) or a list of table names');
    return null;
  }

  flag(path: string, value: unknown): boolean {
    if (value === undefined) return false;
    if (typeof value === 'boolean') return value;
    this.problem(path, 'must be true or false');
    return false;
  }
}

/** Reads lint settings (an object, or JSON text) over the defaults; problems name the setting's path. */
export function parseLintConfig(input: unknown): LintConfigResult {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return { ok: false, problems: [{ path: '', message: 'is not valid JSON' }] };
    }
  }
  if (value === undefined || value === null)
    return { ok: true, config: structuredClone(DEFAULT_LINT_CONFIG) };
  if (!isObject(value)) return { ok: false, problems: [{ path: '', message: 'must be a JSON object' }] };
  const reader = new ConfigReader();
  reader.unknownKeys(
    value,
    ['$schema', 'rules', 'naming', 'max_columns', 'required_parents', 'require_no_errors'],
    '',
  );
  const config: LintConfig = {
    rules: reader.rules(value.rules),
    naming: reader.naming(value.naming),
    max_columns: reader.maxColumns(value.max_columns),
    required_parents: reader.requiredParents(value.required_parents),
    require_no_errors: reader.flag('require_no_errors', value.require_no_errors),
  };
  return reader.problems.length > 0 ? { ok: false, problems: reader.problems } : { ok: true, config };
}

/** The severity a rule has under a configuration: the team's choice, else the rule's default. */
export function severityOf(
  config: LintConfig,
  rule: { id: string; defaultSeverity: LintSeverity },
): LintSeverity {
  return config.rules[rule.id] ?? rule.defaultSeverity;
}
