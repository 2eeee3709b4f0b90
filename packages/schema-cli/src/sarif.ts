// Lint findings as SARIF 2.1.0 (the format code-scanning tools read): one run of the `dss` tool, its rules
// with their documentation line, one result per finding located at the checked file (or database) and,
// logically, at the table and column.
import { type LintFinding, lintRuleList } from '@dss/schema';
import type { Log } from 'sarif';

/** Typed as the SARIF 2.1.0 object model (`@types/sarif`), so a field out of the standard fails to build. */
export function sarifLog(findings: readonly LintFinding[], artifact: string): Log {
  const rules = lintRuleList();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'dss',
            rules: rules.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.documentation },
              defaultConfiguration: { level: rule.default_severity as 'error' | 'warning' },
            })),
          },
        },
        results: findings.map((finding) => ({
          ruleId: finding.rule,
          ruleIndex: rules.findIndex((rule) => rule.id === finding.rule),
          level: finding.severity as 'error' | 'warning',
          message: { text: finding.message },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: artifact } },
              logicalLocations: [
                finding.column === undefined
                  ? { fullyQualifiedName: finding.table, kind: 'type' }
                  : { fullyQualifiedName: `${finding.table}.${finding.column}`, kind: 'member' },
              ],
            },
          ],
        })),
      },
    ],
  };
}
