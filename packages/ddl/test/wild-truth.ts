// Ground truth for the wild corpus (test/wild): each PostgreSQL script is loaded into a fresh database of
// the machine's PostgreSQL, each MySQL script into a fresh database of its MariaDB (both dropped after),
// through their command-line clients, and the catalogs are read back; SQL Server scripts carry a truth
// written by hand (`<name>.truth.json`). Both truth and import are reduced to one shape and compared.
import { execFileSync, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import type { DiagramDocument } from '@dss/schema';

export interface Shape {
  /** table → columns in order: [name, normalised type, not null]. */
  tables: Record<string, [string, string, boolean][]>;
  /** table → primary-key columns, sorted. */
  primary: Record<string, string[]>;
  /** `table.column -> table.column`, one per foreign-key column pair, sorted. */
  foreignKeys: string[];
}

const PG = ['-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', '-X', '-q'];
const MY = ['-h', '127.0.0.1', '-P', '3306', '-u', 'root'];

const PG_TRUTH = `SELECT json_build_object(
 'columns', (SELECT coalesce(json_agg(json_build_array(
     CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END, a.attname,
     CASE WHEN t.typtype = 'e' THEN 'enum' || CASE WHEN a.attndims > 0 THEN '[]' ELSE '' END
          WHEN t.typtype = 'd' THEN format_type(t.typbasetype, t.typtypmod)
          WHEN e.typtype = 'e' THEN 'enum[]'
          ELSE format_type(a.atttypid, a.atttypmod) END,
     a.attnotnull) ORDER BY n.nspname, c.relname, a.attnum), '[]')
   FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_type e ON e.oid = t.typelem AND t.typcategory = 'A'
   WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
     AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'),
 'constraints', (SELECT coalesce(json_agg(json_build_array(con.contype,
     CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END,
     (SELECT json_agg(a.attname ORDER BY k.i) FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
        JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n),
     (SELECT CASE WHEN n2.nspname = 'public' THEN c2.relname ELSE n2.nspname || '.' || c2.relname END
        FROM pg_class c2 JOIN pg_namespace n2 ON n2.oid = c2.relnamespace WHERE c2.oid = con.confrelid),
     (SELECT json_agg(a.attname ORDER BY k.i) FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
        JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n))), '[]')
   FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE con.contype IN ('p', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')))`;

const MY_TRUTH = `SELECT JSON_OBJECT(
 'columns', (SELECT JSON_ARRAYAGG(JSON_ARRAY(table_name, column_name, column_type, is_nullable = 'NO'))
   FROM (SELECT c.* FROM information_schema.columns c JOIN information_schema.tables t
           ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
          WHERE c.table_schema = DATABASE() ORDER BY c.table_name, c.ordinal_position) x),
 'keys', (SELECT JSON_ARRAYAGG(JSON_ARRAY(constraint_name, table_name, column_name, ordinal_position,
            referenced_table_name, referenced_column_name))
   FROM information_schema.key_column_usage
  WHERE table_schema = DATABASE() AND (constraint_name = 'PRIMARY' OR referenced_table_name IS NOT NULL)))`;

/** Fails with one line naming what is missing; never skips. */
export function requireClients(): void {
  for (const [binary, what] of [
    ['psql', 'the PostgreSQL client (apt-get install postgresql-client)'],
    ['mariadb', 'the MariaDB client (apt-get install mariadb-client)'],
  ] as const) {
    if (spawnSync(binary, ['--version']).status !== 0)
      throw new Error(`wild corpus: ${binary} not found: install ${what}`);
  }
  if (spawnSync('psql', [...PG, '-d', 'postgres', '-c', 'SELECT 1']).status !== 0)
    throw new Error('wild corpus: PostgreSQL is not reachable on 127.0.0.1:5432 as postgres (trust)');
  if (spawnSync('mariadb', [...MY, '-e', 'SELECT 1']).status !== 0)
    throw new Error(
      'wild corpus: MariaDB is not reachable on 127.0.0.1:3306 as root without a password (apt-get install mariadb-server)',
    );
}

function push<T>(map: Record<string, T[]>, key: string, value: T): void {
  const list = map[key] ?? [];
  list.push(value);
  map[key] = list;
}

function scratchName(): string {
  return `dss_wild_${crypto.randomBytes(5).toString('hex')}`;
}

/** Loads `file` into a fresh PostgreSQL database and reads its catalog; the database is dropped after. */
export function postgresTruth(file: string): Shape {
  const db = scratchName();
  execFileSync('psql', [...PG, '-d', 'postgres', '-c', `CREATE DATABASE ${db}`]);
  try {
    const load = spawnSync('psql', [...PG, '-d', db, '-v', 'ON_ERROR_STOP=1', '-f', file], {
      encoding: 'utf8',
    });
    if (load.status !== 0) throw new Error(`PostgreSQL rejected ${file}: ${load.stderr.split('\n')[0]}`);
    const out = execFileSync('psql', [...PG, '-d', db, '-At', '-c', PG_TRUTH], { encoding: 'utf8' });
    const raw = JSON.parse(out) as {
      columns: [string, string, string, boolean][];
      constraints: [string, string, string[], string | null, string[] | null][];
    };
    const shape: Shape = { tables: {}, primary: {}, foreignKeys: [] };
    for (const [table, column, type, notNull] of raw.columns)
      push(shape.tables, table, [column, pgType(type), notNull]);
    for (const [kind, table, columns, refTable, refColumns] of raw.constraints) {
      if (kind === 'p') shape.primary[table] = [...columns].sort();
      else
        columns.forEach((column, i) => {
          shape.foreignKeys.push(`${table}.${column} -> ${refTable}.${refColumns?.[i]}`);
        });
    }
    shape.foreignKeys.sort();
    return shape;
  } finally {
    execFileSync('psql', [...PG, '-d', 'postgres', '-c', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`]);
  }
}

/** Loads `file` into a fresh MariaDB database and reads its catalog; the database is dropped after. */
export function mariadbTruth(file: string, sql: string): Shape {
  const db = scratchName();
  execFileSync('mariadb', [...MY, '-e', `CREATE DATABASE ${db} CHARACTER SET utf8mb4`]);
  try {
    const load = spawnSync('mariadb', [...MY, db], { input: sql, encoding: 'utf8' });
    if (load.status !== 0) throw new Error(`MariaDB rejected ${file}: ${load.stderr.split('\n')[0]}`);
    const out = execFileSync('mariadb', [...MY, '-N', '-B', '--raw', db, '-e', MY_TRUTH], {
      encoding: 'utf8',
    });
    const raw = JSON.parse(out) as {
      columns: [string, string, string, boolean][] | null;
      keys: [string, string, string, number, string | null, string | null][] | null;
    };
    const shape: Shape = { tables: {}, primary: {}, foreignKeys: [] };
    for (const [table, column, type, notNull] of raw.columns ?? [])
      push(shape.tables, table, [column, myType(type), Boolean(notNull)]);
    for (const [name, table, column, , refTable, refColumn] of raw.keys ?? []) {
      if (name === 'PRIMARY') push(shape.primary, table, column);
      else shape.foreignKeys.push(`${table}.${column} -> ${refTable}.${refColumn}`);
    }
    for (const columns of Object.values(shape.primary)) columns.sort();
    shape.foreignKeys.sort();
    return shape;
  } finally {
    execFileSync('mariadb', [...MY, '-e', `DROP DATABASE IF EXISTS ${db}`]);
  }
}

/** PostgreSQL's format_type spelling → the comparison spelling. */
export function pgType(type: string): string {
  return type
    .toLowerCase()
    .replace(/^timestamp(\(\d+\))? without time zone/, 'timestamp$1')
    .replace(/^time(\(\d+\))? without time zone/, 'time$1')
    .replace(/^character varying/, 'varchar')
    .replace(/^character\b/, 'char')
    .replace(/^bit varying/, 'varbit');
}

const MY_INTEGER = /^(tinyint|smallint|mediumint|int|bigint)\(\d+\)/;

/** MariaDB's column_type spelling → the comparison spelling (display widths dropped). */
export function myType(type: string): string {
  const lower = type
    .toLowerCase()
    .replace(MY_INTEGER, '$1')
    .replace(/\s+zerofill/, '');
  if (/^(enum|set)\(/.test(lower)) return lower.slice(0, lower.indexOf('('));
  return lower;
}

/** The diagram document in the same shape and spelling. */
export function importShape(document: DiagramDocument): Shape {
  const shape: Shape = { tables: {}, primary: {}, foreignKeys: [] };
  const driver = document.driver;
  for (const table of document.tables) {
    shape.tables[table.name] = table.columns.map((column) => [
      column.name,
      documentType(driver, column),
      !column.is_nullable,
    ]);
    const primary = table.columns.filter((column) => column.is_primary_key).map((column) => column.name);
    if (primary.length > 0) shape.primary[table.name] = primary.sort();
  }
  // Relationships are stored with the foreign-key side as the source.
  shape.foreignKeys = document.relationships
    .map((r) => `${r.source_table}.${r.source_column} -> ${r.target_table}.${r.target_column}`)
    .sort();
  return shape;
}

type DocumentColumn = DiagramDocument['tables'][number]['columns'][number];

function documentType(driver: string, column: DocumentColumn): string {
  const params = (column.driver_data_type_params ?? {}) as Record<string, unknown>;
  let name = column.driver_data_type_name.toLowerCase();
  const args: unknown[] = [];
  if (params['length'] !== undefined) args.push(params['length']);
  if (params['precision'] !== undefined) args.push(params['precision']);
  if (params['scale'] !== undefined) args.push(params['scale']);
  if (driver === 'pgsql') {
    name =
      (
        {
          serial: 'integer',
          bigserial: 'bigint',
          smallserial: 'smallint',
          'character varying': 'varchar',
          character: 'char',
        } as Record<string, string>
      )[name] ?? name;
    if (name === 'timestamp with time zone' || name === 'time with time zone') {
      const [base, ...rest] = name.split(' ');
      return `${base}${args.length ? `(${args.join(',')})` : ''} ${rest.join(' ')}${params['array'] ? '[]' : ''}`;
    }
    return `${name}${args.length ? `(${args.join(',')})` : ''}${params['array'] ? '[]' : ''}`;
  }
  if (driver === 'mysql') {
    name =
      (
        {
          integer: 'int',
          boolean: 'tinyint',
          bool: 'tinyint',
          numeric: 'decimal',
          'double precision': 'double',
          json: 'longtext',
          serial: 'bigint unsigned',
        } as Record<string, string>
      )[name] ?? name;
    if (name === 'char' && args.length === 0) args.push(1);
    if (name === 'decimal' && args.length === 0) args.push(10, 0);
    if (/^(tinyint|smallint|mediumint|int|bigint)$/.test(name)) args.length = 0;
    const unsigned = column.is_unsigned && !name.endsWith('unsigned') ? ' unsigned' : '';
    return `${name}${args.length ? `(${args.join(',')})` : ''}${unsigned}`;
  }
  return `${name}${args.length ? `(${args.join(',')})` : ''}`;
}

export interface Scores {
  tables: number;
  columns: number;
  types: number;
  nullability: number;
  primaryKeys: number;
  foreignKeyPairs: number;
  /** What differs, for the failure message. */
  differences: string[];
}

function ratio(hit: number, of: number): number {
  return of === 0 ? 1 : hit / of;
}

/** How much of the truth the import has (and nothing the truth lacks: extras count as misses). */
export function compare(truth: Shape, imported: Shape): Scores {
  const differences: string[] = [];
  const truthTables = Object.keys(truth.tables);
  const ours = Object.keys(imported.tables);
  const tableHits = truthTables.filter((t) => imported.tables[t]);
  for (const t of truthTables) if (!imported.tables[t]) differences.push(`missing table ${t}`);
  for (const t of ours) if (!truth.tables[t]) differences.push(`extra table ${t}`);
  let columns = 0;
  let columnHits = 0;
  let typeHits = 0;
  let nullHits = 0;
  for (const t of truthTables) {
    const mine = new Map((imported.tables[t] ?? []).map((c) => [c[0], c]));
    const theirs = new Set((truth.tables[t] ?? []).map((c) => c[0]));
    for (const [name, type, notNull] of truth.tables[t] ?? []) {
      columns++;
      const column = mine.get(name);
      if (!column) {
        differences.push(`missing column ${t}.${name}`);
        continue;
      }
      columnHits++;
      if (column[1] === type) typeHits++;
      else differences.push(`type of ${t}.${name}: ${column[1]} (server: ${type})`);
      if (column[2] === notNull) nullHits++;
      else
        differences.push(
          `nullability of ${t}.${name}: ${column[2] ? 'not null' : 'null'} (server: ${notNull ? 'not null' : 'null'})`,
        );
    }
    for (const name of mine.keys())
      if (!theirs.has(name)) {
        columns++;
        differences.push(`extra column ${t}.${name}`);
      }
  }
  const pkTables = new Set([...Object.keys(truth.primary), ...Object.keys(imported.primary)]);
  let pkHits = 0;
  for (const t of pkTables) {
    if ((truth.primary[t] ?? []).join(',') === (imported.primary[t] ?? []).join(',')) pkHits++;
    else
      differences.push(
        `primary key of ${t}: (${imported.primary[t] ?? []}) (server: (${truth.primary[t] ?? []}))`,
      );
  }
  const fkTruth = new Set(truth.foreignKeys);
  const fkOurs = new Set(imported.foreignKeys);
  const fkHits = [...fkTruth].filter((fk) => fkOurs.has(fk)).length;
  for (const fk of fkTruth) if (!fkOurs.has(fk)) differences.push(`missing foreign key pair ${fk}`);
  for (const fk of fkOurs) if (!fkTruth.has(fk)) differences.push(`extra foreign key pair ${fk}`);
  return {
    tables: ratio(tableHits.length, new Set([...truthTables, ...ours]).size),
    columns: ratio(columnHits, columns),
    types: ratio(typeHits, columnHits),
    nullability: ratio(nullHits, columnHits),
    primaryKeys: ratio(pkHits, pkTables.size),
    foreignKeyPairs: ratio(fkHits, new Set([...fkTruth, ...fkOurs]).size),
    differences,
  };
}
