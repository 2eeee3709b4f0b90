// Runs the rules a configuration leaves on and returns their findings: errors first, then by table,
// rule order and column, so the same schema always lists the same way.
import { compareStrings } from '../compare';
import { DEFAULT_LINT_CONFIG, severityOf } from './config';
import { LINT_RULES } from './rules';
import type { LintConfig, LintFinding, LintSchema } from './types';

export interface LintOptions {
  config?: LintConfig;
  /** The schema before a change: turns on the rules about changes (destructive-change). */
  before?: LintSchema | null;
}

export function lintSchema(schema: LintSchema, options: LintOptions = {}): LintFinding[] {
  const config = options.config ?? DEFAULT_LINT_CONFIG;
  const context = { schema, before: options.before ?? null, config };
  const findings: Array<LintFinding & { order: number }> = [];
  LINT_RULES.forEach((rule, order) => {
    const severity = severityOf(config, rule);
    if (severity === 'off') return;
    for (const hit of rule.check(context))
      findings.push({
        rule: rule.id,
        severity,
        message: hit.message,
        table: hit.table,
        ...(hit.column === undefined ? {} : { column: hit.column }),
        order,
      });
  });
  findings.sort(
    (a, b) =>
      Number(a.severity === 'warning') - Number(b.severity === 'warning') ||
      compareStrings(a.table, b.table) ||
      a.order - b.order ||
      compareStrings(a.column ?? '', b.column ?? '') ||
      compareStrings(a.message, b.message),
  );
  return findings.map(({ order: _order, ...finding }) => finding);
}

export interface LintCounts {
  errors: number;
  warnings: number;
}

export function lintCounts(findings: readonly LintFinding[]): LintCounts {
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  return { errors, warnings: findings.length - errors };
}

/** The documented rule list: id, default severity and the documentation line. */
export function lintRuleList() {
  return LINT_RULES.map((rule) => ({
    id: rule.id,
    default_severity: rule.defaultSeverity,
    documentation: rule.documentation,
  }));
}
