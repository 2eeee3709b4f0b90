// Fresh databases on the machine's real PostgreSQL (127.0.0.1:5432) and MariaDB (127.0.0.1:3306) with a
// SELECT-only user each, for the introspection and drift tests. The URL a test hands to the CLI is the
// read-only user's; the admin connection loads DDL and changes the schema.
import * as crypto from 'node:crypto';
import mysql from 'mysql2/promise';
import { Client } from 'pg';

export interface LiveDatabase {
  driver: 'pgsql' | 'mysql';
  /** The read-only user's URL (password included, as a user would pass it). */
  url: string;
  /** The owner's URL (PostgreSQL: the local superuser; MariaDB: root), for a dev database. */
  adminUrl: string;
  password: string;
  run(sql: string): Promise<void>;
  drop(): Promise<void>;
}

export async function livePostgres(): Promise<LiveDatabase> {
  const suffix = crypto.randomBytes(6).toString('hex');
  const name = `dss_live_${suffix}`;
  const reader = `dss_reader_${suffix}`;
  const password = `pw-${crypto.randomBytes(8).toString('hex')}`;
  const admin = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.query(`CREATE ROLE ${reader} LOGIN PASSWORD '${password}'`);
  const owner = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: name });
  await owner.connect();
  return {
    driver: 'pgsql',
    url: `postgres://${reader}:${password}@127.0.0.1:5432/${name}`,
    adminUrl: `postgres://postgres@127.0.0.1:5432/${name}`,
    password,
    run: async (sql) => {
      await owner.query(sql);
      // The reader may see every schema the DDL made, and nothing more (no table privileges).
      await owner.query(`DO $$ DECLARE s text; BEGIN
        FOR s IN SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
        LOOP EXECUTE format('GRANT USAGE ON SCHEMA %I TO ${reader}', s); END LOOP; END $$`);
    },
    drop: async () => {
      await owner.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${reader}`);
      await admin.end();
    },
  };
}

export async function liveMariadb(): Promise<LiveDatabase> {
  const suffix = crypto.randomBytes(6).toString('hex');
  const name = `dss_live_${suffix}`;
  const reader = `dss_reader_${suffix}`;
  const password = `pw-${crypto.randomBytes(8).toString('hex')}`;
  const admin = await mysql.createConnection({
    host: '127.0.0.1',
    port: 3306,
    user: 'root',
    multipleStatements: true,
  });
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  await admin.query(`CREATE USER '${reader}'@'%' IDENTIFIED BY '${password}'`);
  await admin.query(`GRANT SELECT ON ${name}.* TO '${reader}'@'%'`);
  await admin.query(`USE ${name}`);
  return {
    driver: 'mysql',
    url: `mysql://${reader}:${password}@127.0.0.1:3306/${name}`,
    adminUrl: `mysql://root@127.0.0.1:3306/${name}`,
    password,
    run: async (sql) => {
      await admin.query(sql);
    },
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`DROP USER IF EXISTS '${reader}'@'%'`);
      await admin.end();
    },
  };
}
