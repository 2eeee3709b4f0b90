import path from 'node:path';
import { createLogger, createPool, migrate, withTransaction } from '@dss/platform';
import { createTestDatabase, type TestDatabase } from '@dss/platform/testing';
import type { Pool } from 'pg';

const migrationsDir = path.join(__dirname, 'fixtures', 'migrations');
const logger = createLogger('db-test', { level: 'silent' });

describe('PostgreSQL', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url, { max: 4, applicationName: 'db-test', schema: 'widgets', logger });
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  describe('migrate()', () => {
    it('should apply each migration once when two runs start at the same time, creating the schema', async () => {
      const runs = await Promise.all([
        migrate({ databaseUrl: database.url, schema: 'widgets', migrationsDir, logger }),
        migrate({ databaseUrl: database.url, schema: 'widgets', migrationsDir, logger }),
      ]);

      const applied = runs.map((run) => run.applied.length).sort();
      expect(applied).toEqual([0, 2]);
      const { rows: schemas } = await pool.query(
        "SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'widgets'",
      );
      expect(schemas).toHaveLength(1);
      const { rows: history } = await pool.query('SELECT name FROM widgets.pgmigrations ORDER BY id');
      expect(history.map((row) => row.name)).toEqual(['1700000000000_widgets', '1700000000001_widget_seed']);
      const { rows: widgets } = await pool.query('SELECT name FROM widgets.widgets');
      expect(widgets).toEqual([{ name: 'first' }]);
    });

    it('should do nothing when run again', async () => {
      const run = await migrate({ databaseUrl: database.url, schema: 'widgets', migrationsDir, logger });
      expect(run.applied).toEqual([]);
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM widgets');
      expect(rows[0].n).toBe(1);
    });

    it('should keep the migrations table inside the service schema, not in public', async () => {
      const { rows } = await pool.query(
        "SELECT table_schema FROM information_schema.tables WHERE table_name = 'pgmigrations'",
      );
      expect(rows).toEqual([{ table_schema: 'widgets' }]);
    });
  });

  describe('withTransaction()', () => {
    it('should commit and return the value when the work resolves', async () => {
      const id = await withTransaction(pool, async (client) => {
        const { rows } = await client.query("INSERT INTO widgets (name) VALUES ('kept') RETURNING id");
        return rows[0].id as number;
      });
      const { rows } = await pool.query('SELECT name FROM widgets WHERE id = $1', [id]);
      expect(rows).toEqual([{ name: 'kept' }]);
    });

    it('should roll back and rethrow when the work throws', async () => {
      const failure = withTransaction(pool, async (client) => {
        await client.query("INSERT INTO widgets (name) VALUES ('dropped')");
        throw new Error('boom');
      });
      await expect(failure).rejects.toThrow('boom');
      const { rows } = await pool.query("SELECT count(*)::int AS n FROM widgets WHERE name = 'dropped'");
      expect(rows[0].n).toBe(0);
    });

    it('should reject, not crash the process, when the server ends the connection mid-transaction', async () => {
      // pg emits 'error' on a checked-out client whose connection the server ends (a stop, a restart);
      // with no listener on it that event would be an uncaught exception and fail this whole file.
      const failure = withTransaction(pool, async (client) => {
        const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
        await withAdmin(database.url, (admin) =>
          admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]),
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        await client.query("INSERT INTO widgets (name) VALUES ('cut off')");
      });
      await expect(failure).rejects.toThrow();
      const { rows } = await pool.query("SELECT count(*)::int AS n FROM widgets WHERE name = 'cut off'");
      expect(rows[0].n).toBe(0);
    });
  });

  describe('createPool()', () => {
    it('should survive an idle connection being terminated by the server', async () => {
      const client = await pool.connect();
      const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
      client.release();
      await withAdmin(database.url, (admin) => admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { rows: after } = await pool.query('SELECT 1 AS ok');
      expect(after).toEqual([{ ok: 1 }]);
    });
  });
});

async function withAdmin<T>(url: string, work: (client: import('pg').Client) => Promise<T>): Promise<T> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
