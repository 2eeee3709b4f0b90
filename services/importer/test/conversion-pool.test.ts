// The pool of long-lived conversion workers, with real worker threads running the compiled entry.
import { ConversionPool } from '../src/conversion-pool';

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

  it('should answer timeout for a conversion over the limit, and convert the next job in a fresh worker', async () => {
    const pool = new ConversionPool({
      size: 1,
      timeoutMs: 5000,
      maxOldGenerationSizeMb: 2048,
      warmUp: false,
    });
    try {
      // A first job loads the parsers, so the slow one is slow for its size, not for loading.
      expect((await pool.convert('mysql', SMALL)).kind).toBe('converted');
      expect(await pool.convert('mysql', SLOW.repeat(10))).toEqual({ kind: 'timeout' });
      expect((await pool.convert('pgsql', SMALL)).kind).toBe('converted');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('should reject a job whose worker runs out of heap, and start a new worker for the next job', async () => {
    const pool = new ConversionPool({ size: 1, timeoutMs: 20_000, maxOldGenerationSizeMb: 1, warmUp: false });
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
      expect(outcome.result.document.tables[0]?.columns[0]?.is_auto_increment).toBe(true);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
