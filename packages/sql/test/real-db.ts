// Truth from real servers: a scratch database per test on the PostgreSQL and MariaDB of the machine
// (127.0.0.1:5432 and :3306, as the test script provides them), and what their catalogs say a loaded
// script defines, reduced to a shape that a diagram document is reduced to as well, so the two compare.
import * as crypto from 'node:crypto';
import type { Column, DiagramDocument } from '@dss/schema';
import mysql from 'mysql2/promise';
import { Client } from 'pg';
import { DIALECTS, foreignKeys, tableKeys } from '../src';

export interface TableShape {
  comment: string | null;
  columns: string[];
  primary: string;
  uniques: string[];
  indexes: string[];
  /** Names of the CHECK constraints, sorted. */
  checks: string[];
  /** MariaDB: names of the table's foreign keys (MySQL indexes a key that has no index under its name). */
  foreignKeyNames?: string[];
  /**
   * Catalog only (compared catalog to catalog; `withoutImplicit` leaves them out): `column collation` for
   * each column whose collation is not its default (PostgreSQL: the type's; MariaDB: the table's).
   */
  collations?: string[];
  /** Catalog only: MariaDB's table collation (TABLE_COLLATION). */
  collation?: string;
  /** Catalog only: `index method` for each index not of the default method (btree). */
  methods?: string[];
}

export interface Shape {
  tables: Record<string, TableShape>;
  foreignKeys: string[];
}

export interface ScratchDatabase {
  run(sql: string): Promise<void>;
  /** The rows a query answers. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  shape(): Promise<Shape>;
  drop(): Promise<void>;
}

const sorted = (values: string[]) => [...values].sort();

/** A fresh PostgreSQL database, dropped by `drop()`. */
export async function scratchPostgres(): Promise<ScratchDatabase> {
  const name = `dss_sql_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const client = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: name });
  await client.connect();
  return {
    run: async (sql) => {
      await client.query(sql);
    },
    rows: async (sql) => (await client.query(sql)).rows,
    shape: () => postgresShape(client),
    drop: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * Fresh PostgreSQL schemas in one database made for them (a schema costs a tenth of a database): each
 * scratch schema is the search path of its own connection, so unqualified scripts land in it.
 */
export async function postgresSchemas(): Promise<{
  open(): Promise<ScratchDatabase>;
  close(): Promise<void>;
}> {
  const name = `dss_sql_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    open: async () => {
      const schema = `s_${crypto.randomBytes(6).toString('hex')}`;
      const client = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: name });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema}`);
      return {
        run: async (sql) => {
          await client.query(sql);
        },
        rows: async (sql) => (await client.query(sql)).rows,
        shape: () => postgresShape(client, schema),
        drop: async () => {
          await client.query(`ROLLBACK; DROP SCHEMA ${schema} CASCADE`);
          await client.end();
        },
      };
    },
    close: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A fresh MariaDB database, dropped by `drop()`. */
export async function scratchMariadb(): Promise<ScratchDatabase> {
  const name = `dss_sql_${crypto.randomBytes(6).toString('hex')}`;
  const connection = await mysql.createConnection({
    host: '127.0.0.1',
    port: 3306,
    user: 'root',
    multipleStatements: true,
  });
  await connection.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  await connection.query(`USE ${name}`);
  return {
    run: async (sql) => {
      await connection.query(sql);
    },
    rows: async (sql) => (await connection.query<mysql.RowDataPacket[]>(sql))[0],
    shape: () => mariadbShape(connection, name),
    drop: async () => {
      await connection.query(`DROP DATABASE IF EXISTS ${name}`);
      await connection.end();
    },
  };
}

function tableName(schema: string, table: string, home: string): string {
  return schema === home ? table : `${schema}.${table}`;
}

/** The catalog's shape: of every schema (`public` unnamed), or of one schema alone (then unnamed). */
async function postgresShape(client: Client, only?: string): Promise<Shape> {
  const tables: Record<string, TableShape> = {};
  const home = only ?? 'public';
  const own =
    only === undefined
      ? `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`
      : `n.nspname = '${only}'`;
  const relations = await client.query<{ schema: string; name: string; comment: string | null }>(
    `SELECT n.nspname AS schema, c.relname AS name, obj_description(c.oid, 'pg_class') AS comment
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND ${own}`,
  );
  for (const row of relations.rows)
    tables[tableName(row.schema, row.name, home)] = {
      comment: row.comment,
      columns: [],
      primary: '',
      uniques: [],
      indexes: [],
      checks: [],
    };
  const columns = await client.query<{
    schema: string;
    table: string;
    name: string;
    type: string;
    not_null: boolean;
    has_default: boolean;
    identity: string;
    comment: string | null;
    labels: string[] | null;
    collation: string | null;
  }>(
    `SELECT n.nspname AS schema, c.relname AS table, a.attname AS name,
            (SELECT co.collname FROM pg_collation co JOIN pg_type ty ON ty.oid = a.atttypid
              WHERE co.oid = a.attcollation AND a.attcollation <> ty.typcollation) AS collation,
            format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
            a.atthasdef AS has_default, a.attidentity AS identity,
            col_description(c.oid, a.attnum) AS comment,
            (SELECT array_agg(e.enumlabel::text ORDER BY e.enumsortorder) FROM pg_enum e
              WHERE e.enumtypid = a.atttypid) AS labels
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND ${own}
      ORDER BY n.nspname, c.relname, a.attnum`,
  );
  for (const row of columns.rows) {
    const type =
      row.labels !== null
        ? `enum(${row.labels.join(',')})`
        : row.type.replace(' without time zone', '').replaceAll('"', '');
    const numbered = row.identity !== '' ? ' auto' : '';
    const owner = tables[tableName(row.schema, row.table, home)];
    if (owner && row.collation !== null)
      owner.collations = [...(owner.collations ?? []), `${row.name} ${row.collation}`];
    tables[tableName(row.schema, row.table, home)]?.columns.push(
      `${row.name} ${type}${row.not_null ? ' not null' : ''}${row.has_default || numbered ? ' default' : ''}${numbered}${
        row.comment !== null ? ` -- ${row.comment}` : ''
      }`,
    );
  }
  const constraints = await client.query<{
    schema: string;
    table: string;
    type: string;
    name: string;
    columns: string[];
    ref_schema: string | null;
    ref_table: string | null;
    ref_columns: string[] | null;
  }>(
    `SELECT n.nspname AS schema, t.relname AS table, c.contype AS type, c.conname AS name,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num) AS columns,
            rn.nspname AS ref_schema, r.relname AS ref_table,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num) AS ref_columns
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_class r ON r.oid = c.confrelid LEFT JOIN pg_namespace rn ON rn.oid = r.relnamespace
      WHERE c.contype IN ('p', 'u', 'f', 'c') AND ${own}`,
  );
  const keys: string[] = [];
  for (const row of constraints.rows) {
    const table = tableName(row.schema, row.table, home);
    if (row.type === 'c') tables[table]?.checks.push(row.name);
    else if (row.type === 'f') {
      keys.push(
        `${table}(${row.columns.join(',')}) -> ${tableName(row.ref_schema ?? '', row.ref_table ?? '', home)}(${(
          row.ref_columns ?? []
        ).join(',')})`,
      );
    } else if (row.type === 'p') {
      const shape = tables[table];
      if (shape) shape.primary = row.columns.join(',');
    }
  }
  // Unique keys and plain indexes as indexes (a unique constraint is a unique index with the same name).
  const indexes = await client.query<{
    schema: string;
    table: string;
    name: string;
    unique: boolean;
    primary: boolean;
    columns: string[];
    method: string;
  }>(
    `SELECT n.nspname AS schema, t.relname AS table, i.relname AS name, x.indisunique AS unique,
            x.indisprimary AS primary, (SELECT am.amname FROM pg_am am WHERE am.oid = i.relam) AS method,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.num) AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE ${own}`,
  );
  for (const row of indexes.rows) {
    const shape = tables[tableName(row.schema, row.table, home)];
    if (!shape) continue;
    if (row.method !== 'btree') shape.methods = [...(shape.methods ?? []), `${row.name} ${row.method}`];
    if (row.primary) continue;
    if (row.unique) shape.uniques.push(`${row.name}(${(row.columns ?? []).join(',')})`);
    else shape.indexes.push(`${row.name}(${(row.columns ?? []).join(',')})`);
  }
  for (const shape of Object.values(tables)) {
    shape.uniques = sorted(shape.uniques);
    shape.indexes = sorted(shape.indexes);
    shape.checks = sorted(shape.checks);
    if (shape.methods) shape.methods = sorted(shape.methods);
  }
  return { tables, foreignKeys: sorted(keys) };
}

async function mariadbShape(connection: mysql.Connection, database: string): Promise<Shape> {
  const tables: Record<string, TableShape> = {};
  const [tableRows] = await connection.query<mysql.RowDataPacket[]>(
    `SELECT TABLE_NAME AS name, TABLE_COMMENT AS comment, TABLE_COLLATION AS collation
       FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'`,
    [database],
  );
  for (const row of tableRows)
    tables[row.name as string] = {
      comment: row.comment === '' ? null : (row.comment as string),
      columns: [],
      primary: '',
      uniques: [],
      indexes: [],
      checks: [],
      collation: row.collation as string,
    };
  const [columnRows] = await connection.query<mysql.RowDataPacket[]>(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable,
            COLUMN_DEFAULT AS def, EXTRA AS extra, COLUMN_COMMENT AS comment, COLLATION_NAME AS collation
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    [database],
  );
  for (const row of columnRows) {
    const type = String(row.type)
      .toLowerCase()
      .replace(/^(tinyint|smallint|mediumint|int|bigint)\(\d+\)/, '$1');
    const auto = /auto_increment/i.test(String(row.extra));
    const hasDefault = row.def !== null && row.def !== 'NULL';
    const owner = tables[row.t as string];
    if (owner && row.collation !== null && row.collation !== owner.collation)
      owner.collations = [...(owner.collations ?? []), `${row.name} ${row.collation}`];
    tables[row.t as string]?.columns.push(
      `${row.name} ${type}${row.nullable === 'NO' ? ' not null' : ''}${hasDefault || auto ? ' default' : ''}${
        auto ? ' auto' : ''
      }${row.comment !== '' ? ` -- ${row.comment}` : ''}`,
    );
  }
  const [checkRows] = await connection.query<mysql.RowDataPacket[]>(
    `SELECT TABLE_NAME AS t, CONSTRAINT_NAME AS name, CHECK_CLAUSE AS clause
       FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?`,
    [database],
  );
  for (const row of checkRows)
    if (!isJsonValidCheck(row.name as string, row.clause as string))
      tables[row.t as string]?.checks.push(row.name);
  const [indexRows] = await connection.query<mysql.RowDataPacket[]>(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS name, NON_UNIQUE AS non_unique, COLUMN_NAME AS col,
            INDEX_TYPE AS method
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    [database],
  );
  const grouped = new Map<
    string,
    { table: string; name: string; unique: boolean; columns: string[]; method: string }
  >();
  for (const row of indexRows) {
    const key = `${row.t}\u0000${row.name}`;
    const entry = grouped.get(key) ?? {
      table: row.t as string,
      name: row.name as string,
      unique: Number(row.non_unique) === 0,
      columns: [],
      method: String(row.method).toLowerCase(),
    };
    entry.columns.push(row.col as string);
    grouped.set(key, entry);
  }
  const [keyRows] = await connection.query<mysql.RowDataPacket[]>(
    `SELECT TABLE_NAME AS t, CONSTRAINT_NAME AS name, COLUMN_NAME AS col,
            REFERENCED_TABLE_NAME AS rt, REFERENCED_COLUMN_NAME AS rc
       FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
    [database],
  );
  const fks = new Map<string, { table: string; ref: string; columns: string[]; refColumns: string[] }>();
  for (const row of keyRows) {
    const key = `${row.t}\u0000${row.name}`;
    const entry = fks.get(key) ?? {
      table: row.t as string,
      ref: row.rt as string,
      columns: [],
      refColumns: [],
    };
    entry.columns.push(row.col as string);
    entry.refColumns.push(row.rc as string);
    fks.set(key, entry);
  }
  for (const key of fks.keys()) {
    const [table, name] = key.split('\u0000') as [string, string];
    const shape = tables[table];
    if (shape) shape.foreignKeyNames = [...(shape.foreignKeyNames ?? []), name];
  }
  for (const index of grouped.values()) {
    const shape = tables[index.table];
    if (!shape) continue;
    const text = `${index.name}(${index.columns.join(',')})`;
    if (index.method !== 'btree') shape.methods = [...(shape.methods ?? []), `${index.name} ${index.method}`];
    if (index.name === 'PRIMARY') shape.primary = index.columns.join(',');
    else if (index.unique) shape.uniques.push(text);
    // MySQL adds an index for a foreign key that has none; it carries the key's name.
    else shape.indexes.push(text);
  }
  for (const shape of Object.values(tables)) {
    shape.uniques = sorted(shape.uniques);
    shape.indexes = sorted(shape.indexes);
    shape.checks = sorted(shape.checks);
    if (shape.methods) shape.methods = sorted(shape.methods);
  }
  const foreignKeyTexts = [...fks.values()].map(
    (fk) => `${fk.table}(${fk.columns.join(',')}) -> ${fk.ref}(${fk.refColumns.join(',')})`,
  );
  return { tables, foreignKeys: sorted(foreignKeyTexts) };
}

/**
 * MariaDB's own check on a `json` column (`json_valid(col)`, named after the column): the server adds it,
 * and a dump shows it as the column's CHECK, so it is left out on both sides of a comparison.
 */
function isJsonValidCheck(name: string, expression: string): boolean {
  return expression.replace(/[`\s]/g, '').toLowerCase() === `json_valid(${name.toLowerCase()})`;
}

const PG_SERIAL: Record<string, string> = { serial: 'integer', bigserial: 'bigint', smallserial: 'smallint' };

function expectedType(document: DiagramDocument, table: string, column: Column): string {
  const params = column.driver_data_type_params;
  if (column.driver_data_type_name === 'enum' && document.driver === 'pgsql')
    return `enum(${(params?.values ?? []).join(',')})${params?.array ? '[]' : ''}`;
  if (document.driver === 'pgsql') {
    const base = PG_SERIAL[column.driver_data_type_name];
    if (base !== undefined) return base;
    return DIALECTS.pgsql.type(table, column).replaceAll('"', '');
  }
  const name = column.driver_data_type_name;
  if (name === 'boolean') return 'tinyint';
  if (name === 'year') return 'year(4)';
  if (name === 'serial') return 'bigint unsigned';
  if (name === 'json') return 'longtext';
  return DIALECTS.mysql
    .type(table, { ...column, driver_data_type_params: /int$/.test(name) ? null : params })
    .toLowerCase();
}

/** What a database built from the document should hold, in the shape the catalogs are read into. */
export function expectedShape(document: DiagramDocument): Shape {
  const tables: Record<string, TableShape> = {};
  const keys = foreignKeys(document);
  for (const table of document.tables) {
    const indexKeys = tableKeys(table);
    const primary = indexKeys.find((key) => key.type === 'primary');
    const serialLike = (column: Column) =>
      column.is_auto_increment ||
      column.driver_data_type_name in PG_SERIAL ||
      column.driver_data_type_name === 'serial';
    tables[table.name] = {
      comment: table.comment,
      columns: table.columns.map((column) => {
        const auto =
          document.driver === 'pgsql'
            ? column.is_auto_increment &&
              !(column.driver_data_type_name in PG_SERIAL) &&
              !/nextval/i.test(column.default ?? '')
            : serialLike(column);
        const hasDefault =
          column.default !== null ||
          (document.driver === 'pgsql' && column.driver_data_type_name in PG_SERIAL);
        const notNull =
          !column.is_nullable ||
          (document.driver === 'pgsql' && auto) ||
          primary?.columns.includes(column.name) === true ||
          column.driver_data_type_name === 'serial' ||
          column.driver_data_type_name in PG_SERIAL;
        return `${column.name} ${expectedType(document, table.name, column)}${notNull ? ' not null' : ''}${
          hasDefault || auto ? ' default' : ''
        }${auto ? ' auto' : ''}${column.comment !== null ? ` -- ${column.comment}` : ''}`;
      }),
      primary: primary?.columns.join(',') ?? '',
      uniques: sorted(
        indexKeys
          .filter((key) => key.type === 'unique')
          .map((key) => `${key.name}(${key.columns.join(',')})`),
      ),
      indexes: sorted(
        indexKeys.filter((key) => key.type === 'index').map((key) => `${key.name}(${key.columns.join(',')})`),
      ),
      checks: sorted(
        (table.checks ?? [])
          .filter((check) => document.driver !== 'mysql' || !isJsonValidCheck(check.name, check.expression))
          .map((check) => check.name),
      ),
    };
  }
  return {
    tables,
    foreignKeys: sorted(
      keys.map(
        (key) => `${key.table}(${key.columns.join(',')}) -> ${key.refTable}(${key.refColumns.join(',')})`,
      ),
    ),
  };
}

/**
 * The catalog's shape without what the server adds by itself: MySQL's index for a foreign key that has
 * none (it carries the key's name, or its first column's when the key is unnamed) unless the diagram
 * declares an index of that name.
 */
export function withoutImplicit(actual: Shape, expected: Shape): Shape {
  const tables: Record<string, TableShape> = {};
  for (const [name, { foreignKeyNames, collations, collation, methods, ...shape }] of Object.entries(
    actual.tables,
  )) {
    const declared = new Set(expected.tables[name]?.indexes ?? []);
    // An unnamed key's index is named after its first column.
    const firstColumns = actual.foreignKeys
      .filter((key) => key.startsWith(`${name}(`))
      .map((key) => key.slice(name.length + 1).split(/[,)]/)[0] ?? '');
    const implicit = new Set([...(foreignKeyNames ?? []), ...firstColumns]);
    tables[name] = {
      ...shape,
      indexes: shape.indexes.filter(
        (index) => declared.has(index) || !implicit.has(index.replace(/\(.*$/, '')),
      ),
    };
  }
  return { ...actual, tables };
}

/** The catalog-only parts of a shape (collations, table collations, index methods), table by table. */
export function catalogSettings(
  shape: Shape,
): Record<string, Pick<TableShape, 'collations' | 'collation' | 'methods'>> {
  return Object.fromEntries(
    Object.entries(shape.tables).map(([name, { collations, collation, methods }]) => [
      name,
      { collations, collation, methods },
    ]),
  );
}
