// The worker-thread conversion for real: the compiled worker entry (dist) loads @dss/ddl's dist.
import { runConversion, workerEntry } from '@dss/ddl';
import { documentOf } from './conversion-document';

describe('runConversion (worker thread)', () => {
  it('should resolve the compiled worker entry', () => {
    expect(workerEntry()).toMatch(/dist[/\\]pool[/\\]convert-worker\.js$/);
  });

  it('should convert pgsql DDL in a worker', async () => {
    const outcome = await runConversion(
      'pgsql',
      'CREATE TABLE customers (id bigint PRIMARY KEY);\nCREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint REFERENCES customers (id));',
      { timeoutMs: 20_000 },
    );
    expect(outcome.kind).toBe('converted');
    if (outcome.kind !== 'converted' || !outcome.result.ok) throw new Error('expected a document');
    expect(
      documentOf(outcome.result)
        .tables.map((table) => table.name)
        .sort(),
    ).toEqual(['customers', 'orders']);
    expect(documentOf(outcome.result).relationships).toHaveLength(1);
  });

  it('should answer the syntax error with line and column when no table is readable', async () => {
    const outcome = await runConversion('pgsql', 'CREATE TABLE a (id int;\nCREATE TABLE (id int,,);', {
      timeoutMs: 20_000,
    });
    if (outcome.kind !== 'converted' || outcome.result.ok) throw new Error('expected a failure');
    expect(outcome.result.code).toBe('ddl_syntax_error');
    expect(outcome.result.message).toMatch(/line 1, column \d+/);
  });

  it('should answer the warnings of a statement it skipped, with the readable tables', async () => {
    const outcome = await runConversion('pgsql', 'CREATE TABLE a (id int);\nCREATE TABLE (id int,,);', {
      timeoutMs: 20_000,
    });
    if (outcome.kind !== 'converted' || !outcome.result.ok) throw new Error('expected a document');
    expect(JSON.parse(outcome.result.document_json).tables).toHaveLength(1);
    expect(outcome.result.warnings).toEqual([
      expect.objectContaining({ line: 2, code: 'statement_skipped' }),
    ]);
    expect(outcome.result.warnings_total).toBe(1);
  });

  it('should terminate a conversion that exceeds the time limit', async () => {
    const ddl = Array.from(
      { length: 2000 },
      (_, i) => `CREATE TABLE t${i} (id int PRIMARY KEY, a text);`,
    ).join('\n');
    const outcome = await runConversion('mysql', ddl, { timeoutMs: 1 });
    expect(outcome).toEqual({ kind: 'timeout' });
  });

  it('should reject when the worker runs out of its heap cap, so the job is redelivered', async () => {
    await expect(
      runConversion('pgsql', 'CREATE TABLE a (id int);', { timeoutMs: 20_000, maxOldGenerationSizeMb: 4 }),
    ).rejects.toThrow(/memory/);
  });
});
