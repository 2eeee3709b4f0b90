// What migrations do to a diagram, found the way the servers find it: a dev database (empty, given by
// --dev-url) gets the diagram's CREATE script and then each migration; its catalog is then read like any
// live database. PostgreSQL does it all in one transaction that is rolled back; MySQL (whose DDL commits
// at once) has every table dropped again afterwards.
import type { DiagramDocument } from '@dss/schema';
import { createScript } from '@dss/sql';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { loadMysql } from '../mysql-driver';
import { Client } from 'pg';
import { type Introspection, IntrospectionError, introspectWith } from '../introspect';
import { readSchema } from '../introspect/mysql';
import { readTables } from '../introspect/postgres';
import { databaseTarget } from '../introspect/target';

export interface Migration {
  name: string;
  sql: string;
}

export async function schemaAfterMigrations(
  devUrl: string,
  before: DiagramDocument,
  migrations: Migration[],
): Promise<Introspection> {
  const target = databaseTarget(devUrl);
  if (target.driver !== before.driver)
    throw new IntrospectionError(
      `--dev-url is a ${target.driver} database but the diagram is ${before.driver}`,
    );
  const script = createScript(before).sql;
  return introspectWith(target, async (builder) => {
    if (target.driver === 'pgsql') {
      const client = new Client({ connectionString: target.url.href, application_name: 'dss check' });
      await client.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`,
        );
        if ((rows[0]?.n ?? 0) > 0)
          throw new IntrospectionError(`the dev database ${target.description} must be empty`);
        await client.query(script);
        for (const migration of migrations) await runNamed(migration, () => client.query(migration.sql));
        return await readTables(client, builder);
      } finally {
        await client.query('ROLLBACK').catch(() => undefined);
        await client.end();
      }
    }
    const database = decodeURIComponent(target.url.pathname.replace(/^\//, ''));
    const connection = await (await loadMysql()).createConnection({
      host: target.url.hostname,
      port: Number(target.url.port || 3306),
      user: decodeURIComponent(target.url.username),
      password: decodeURIComponent(target.url.password),
      database,
      multipleStatements: true,
    });
    let loaded = false;
    try {
      const [tables] = await connection.query<RowDataPacket[]>(
        'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
        [database],
      );
      if (tables.length > 0)
        throw new IntrospectionError(`the dev database ${target.description} must be empty`);
      loaded = true;
      await connection.query(script);
      for (const migration of migrations) await runNamed(migration, () => connection.query(migration.sql));
      return await readSchema(connection, database, builder);
    } finally {
      if (loaded) await emptyMysql(connection, database);
      await connection.end();
    }
  });
}

/** A migration that fails is named in the one line the user sees. */
async function runNamed(migration: Migration, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    throw new IntrospectionError(
      `migration ${migration.name} failed: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

async function emptyMysql(connection: Connection, database: string): Promise<void> {
  const [tables] = await connection.query<RowDataPacket[]>(
    'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
    [database],
  );
  if (tables.length === 0) return;
  const names = tables.map((row) => `\`${String(row.name).replaceAll('`', '``')}\``).join(', ');
  await connection.query(
    `SET FOREIGN_KEY_CHECKS = 0; DROP TABLE IF EXISTS ${names}; SET FOREIGN_KEY_CHECKS = 1`,
  );
}
