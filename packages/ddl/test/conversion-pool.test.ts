// The pool of long-lived conversion workers, with real worker threads running the compiled entry.
import path from 'node:path';
import { ConversionPool, convertDdl, type DdlDriver } from '@dss/ddl';
import { documentOf } from './conversion-document';

const SMALL = 'CREATE TABLE a (id int PRIMARY KEY);';
const SLOW = Array.from({ length: 2000 }, (_, i) => `CREATE TABLE t${i} (id int PRIMARY KEY, a text);`).join(
  '\n',
);

describe('ConversionPool', () => {
  describe('with one cold worker', () => {
    let pool: ConversionPool;
    beforeEach(() => {
      pool = new ConversionPool({ size: 1, timeoutMs: 20_000, maxOldGenerationSizeMb: 512, warmUp: false });
    });
    afterEach(() => pool.close());

    it('should convert one job after another in the same worker', async () => {
      const first = await pool.convert('pgsql', SMALL);
      const second = await pool.convert('mysql', 'CREATE TABLE b (id int PRIMARY KEY);');
      expect(first.kind === 'converted' && first.result.ok).toBe(true);
      expect(second.kind === 'converted' && second.result.ok).toBe(true);
    });

    it('should queue a job while the only worker is busy, then run it', async () => {
      const first = pool.convert('pgsql', SMALL);
      const second = pool.convert('pgsql', 'CREATE TABLE c (id int);');
      expect(pool.busy).toBe(1);
      expect(pool.queued).toBe(1);
      const outcomes = await Promise.all([first, second]);
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['converted', 'converted']);
      expect(pool.busy).toBe(0);
      expect(pool.queued).toBe(0);
    });
  });

  it("should run the layout's last step (finishLayout) on each converted document, in the worker", async () => {
    const pool = new ConversionPool({
      size: 1,
      timeoutMs: 20_000,
      maxOldGenerationSizeMb: 512,
      warmUp: false,
      finishLayout: { module: path.join(__dirname, 'finish-layout-fixture.js'), name: 'moveRight' },
    });
    const ddl =
      'CREATE TABLE a (id int PRIMARY KEY);\nCREATE TABLE b (id int PRIMARY KEY, a_id int REFERENCES a(id));';
    try {
      const outcome = await pool.convert('pgsql', ddl);
      if (outcome.kind !== 'converted') throw new Error('expected a conversion');
      const plain = await convertDdl('pgsql', ddl);
      if (!plain.ok) throw new Error(plain.message);
      expect(documentOf(outcome.result).tables.map((table) => table.left)).toEqual(
        plain.document.tables.map((table) => table.left + 1000),
      );
    } finally {
      await pool.close();
    }
  });

  it('should answer timeout for a conversion over the limit, and convert the next job in a fresh worker', async () => {
    // Warm workers: the limit counts conversion time only, not loading the parsers.
    const pool = new ConversionPool({ size: 1, timeoutMs: 1000, maxOldGenerationSizeMb: 2048, warmUp: true });
    try {
      await pool.ready();
      expect(await pool.convert('mysql', SLOW.repeat(10))).toEqual({ kind: 'timeout' });
      expect((await pool.convert('pgsql', SMALL)).kind).toBe('converted');
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('should close the idle SQL Server parser thread and start it again for the next SQL Server job', async () => {
    const pool = new ConversionPool({
      size: 1,
      timeoutMs: 60_000,
      maxOldGenerationSizeMb: 1024,
      warmUp: ['pgsql'],
      sqlsrvIdleMs: 100,
    });
    try {
      await pool.ready();
      const sql = 'CREATE TABLE [A]([Id] int NOT NULL PRIMARY KEY)\nGO\n';
      const first = await pool.convert('sqlsrv', sql);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const second = await pool.convert('sqlsrv', sql);
      for (const outcome of [first, second]) {
        if (outcome.kind !== 'converted' || !outcome.result.ok) throw new Error('expected a document');
        expect(documentOf(outcome.result).tables.map((table) => table.name)).toEqual(['A']);
      }
      expect((await pool.convert('pgsql', SMALL)).kind).toBe('converted');
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('should reject a job whose worker runs out of heap, and start a new worker for the next job', async () => {
    const pool = new ConversionPool({ size: 1, timeoutMs: 20_000, maxOldGenerationSizeMb: 4, warmUp: false });
    try {
      await expect(pool.convert('pgsql', SMALL)).rejects.toThrow(/memory/);
      await expect(pool.convert('pgsql', SMALL)).rejects.toThrow(/memory/);
    } finally {
      await pool.close();
    }
  });

  it('should reject jobs after close', async () => {
    const pool = new ConversionPool({
      size: 1,
      timeoutMs: 20_000,
      maxOldGenerationSizeMb: 512,
      warmUp: false,
    });
    await pool.close();
    await expect(pool.convert('pgsql', SMALL)).rejects.toThrow(/closed/);
  });

  it('should warm its workers with a sample of every dialect before reporting ready', async () => {
    const pool = new ConversionPool({
      size: 1,
      timeoutMs: 60_000,
      maxOldGenerationSizeMb: 1024,
      warmUp: true,
    });
    try {
      await pool.ready();
      const outcome = await pool.convert(
        'sqlsrv',
        'CREATE TABLE [dbo].[A]([Id] [int] IDENTITY(1,1) NOT NULL)',
      );
      if (outcome.kind !== 'converted' || !outcome.result.ok) throw new Error('expected a document');
      expect(documentOf(outcome.result).tables[0]?.columns[0]?.is_auto_increment).toBe(true);
    } finally {
      await pool.close();
    }
  }, 120_000);

  describe('with two parse threads per worker', () => {
    // Over the spreading threshold (20,000 characters of statements), with keys across the halves.
    const LARGE: Record<'sqlsrv' | 'mysql', string> = {
      sqlsrv: Array.from(
        { length: 120 },
        (_, i) =>
          `CREATE TABLE [dbo].[T${i}]([Id] [int] IDENTITY(1,1) NOT NULL, [Name] [nvarchar](50) NOT NULL,` +
          ` [ParentId] [int] NULL, CONSTRAINT [PK_T${i}] PRIMARY KEY CLUSTERED ([Id] ASC))\nGO\n` +
          `ALTER TABLE [dbo].[T${i}] WITH CHECK ADD CONSTRAINT [FK_T${i}] FOREIGN KEY([ParentId]) REFERENCES [dbo].[T${(i + 60) % 120}] ([Id])\nGO\n`,
      ).join(''),
      mysql: Array.from(
        { length: 150 },
        (_, i) =>
          `CREATE TABLE \`t${i}\` (\`id\` int unsigned NOT NULL AUTO_INCREMENT, \`name\` varchar(50) NOT NULL,` +
          ` \`parent_id\` int unsigned DEFAULT NULL, PRIMARY KEY (\`id\`), KEY \`parent\` (\`parent_id\`),` +
          ` CONSTRAINT \`fk_${i}\` FOREIGN KEY (\`parent_id\`) REFERENCES \`t${(i + 75) % 150}\` (\`id\`)) ENGINE=InnoDB;\n`,
      ).join(''),
    };
    let pool: ConversionPool;
    beforeAll(() => {
      pool = new ConversionPool({
        size: 1,
        timeoutMs: 120_000,
        maxOldGenerationSizeMb: 1024,
        warmUp: false,
        parseThreads: 2,
      });
    });
    afterAll(() => pool.close());

    it.each(['sqlsrv', 'mysql'] as DdlDriver[])(
      'should give the document one thread gives (%s)',
      async (driver) => {
        const ddl = LARGE[driver as 'sqlsrv' | 'mysql'];
        expect(ddl.length).toBeGreaterThan(20_000);
        const outcome = await pool.convert(driver, ddl);
        const alone = await convertDdl(driver, ddl);
        if (outcome.kind !== 'converted' || !outcome.result.ok || !alone.ok)
          throw new Error('expected documents');
        const shape = (document: typeof alone.document) => ({
          tables: document.tables.map((table) => [
            table.name,
            table.columns.map((c) => c.name),
            table.indexes.length,
          ]),
          relationships: document.relationships.map((r) => [r.name, r.source_table, r.target_table, r.type]),
        });
        expect(shape(documentOf(outcome.result))).toEqual(shape(alone.document));
        expect(documentOf(outcome.result).relationships).toHaveLength(driver === 'sqlsrv' ? 120 : 150);
      },
      120_000,
    );

    it('should warn of a syntax error in the second half with its line and column in the script', async () => {
      const ddl = `${LARGE.sqlsrv}CREATE TABLE [dbo].[Broken]([Id] [int] NOT NULL PRIMARY KEY KEY)\nGO\n`;
      const outcome = await pool.convert('sqlsrv', ddl);
      if (outcome.kind !== 'converted' || !outcome.result.ok) throw new Error('expected a document');
      expect(outcome.result.warnings).toEqual([
        expect.objectContaining({ code: 'clause_dropped', line: 481, column: 61 }),
      ]);
    }, 120_000);
  });
});
