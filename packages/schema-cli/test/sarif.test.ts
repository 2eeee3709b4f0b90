// The SARIF log of `lint --format sarif` and `check --format sarif` against the SARIF 2.1.0 JSON schema:
// one finding of every rule (table and column locations), none at all, and logs the schema must refuse
// (so the validation can fail).
import { convertDdl } from '@dss/ddl';
import { type LintFinding, lintRuleList, lintSchema } from '@dss/schema';
import { sarifLog } from '../src/sarif';
import { sarifProblems } from './support/sarif-schema';

describe('SARIF output', () => {
  it('When every lint rule has a finding, then the log is valid SARIF 2.1.0 and names each rule once', () => {
    const findings: LintFinding[] = lintRuleList().map((rule, index) => ({
      rule: rule.id,
      severity: index % 2 === 0 ? 'error' : 'warning',
      message: `finding of ${rule.id}`,
      table: `table_${index}`,
      ...(index % 3 === 0 ? { column: 'a_column' } : {}),
    }));
    const log = sarifLog(findings, 'db/migrations');
    expect(sarifProblems(log)).toEqual([]);
    expect(log.runs[0]?.tool.driver.rules?.map((rule) => rule.id)).toEqual(lintRuleList().map((r) => r.id));
    expect(log.runs[0]?.results).toHaveLength(findings.length);
  });

  it('When a real schema is linted, then its findings validate, and a log without findings too', async () => {
    const converted = await convertDdl(
      'pgsql',
      'CREATE TABLE "Orders" (id int, customer_id int REFERENCES customers (id)); CREATE TABLE customers (id int PRIMARY KEY);',
    );
    if (!converted.ok) throw new Error(converted.message);
    const findings = lintSchema(converted.document);
    expect(findings.length).toBeGreaterThan(1);
    expect(sarifProblems(sarifLog(findings, 'postgres://127.0.0.1:5432/shop'))).toEqual([]);
    expect(sarifProblems(sarifLog([], 'schema.sql'))).toEqual([]);
  });

  it('When a log breaks the standard, then the schema check names the problem', () => {
    const log = sarifLog([], 'schema.sql') as unknown as Record<string, unknown>;
    expect(sarifProblems({ ...log, version: '2.0.0' })).toContainEqual(expect.stringMatching(/^\/version: /));
    const badLevel = sarifLog(
      [{ rule: 'table-without-primary-key', severity: 'error', message: 'm', table: 't' }],
      'schema.sql',
    );
    (badLevel.runs[0]!.results![0] as { level: string }).level = 'fatal';
    expect(sarifProblems(badLevel)).toContainEqual(expect.stringMatching(/^\/runs\/0\/results\/0\/level: /));
    expect(sarifProblems({ version: '2.1.0', runs: [{ tool: {} }] })).toContainEqual(
      expect.stringMatching(/driver/),
    );
  });
});
