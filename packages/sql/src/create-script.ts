// The CREATE script of a diagram in its driver: schemas, PostgreSQL enum types and sequences, tables in
// dependency order with their keys, plain indexes, foreign keys (inline when the referenced table already
// exists, else added after every table) and comments. Loading it into an empty database of the driver
// builds the diagram's schema; importing it gives the diagram back.
import type { Check, Column, DiagramDocument, DocumentTable } from '@dss/schema';
import { dependencyOrder, type ForeignKey, foreignKeys, type Key, tableKeys } from './constraints';
import { DIALECTS, type Dialect, pgEnumType, splitTableName } from './dialect';

export interface SqlScript {
  /** The statements joined into one script, each ended by `;` (and `GO` batches for SQL Server). */
  sql: string;
  /** The statements, without their terminators. */
  statements: string[];
}

/** Types stored as large objects: MySQL indexes them only with a prefix length. */
const MYSQL_PREFIX_TYPES = new Set([
  'tinytext',
  'text',
  'mediumtext',
  'longtext',
  'tinyblob',
  'blob',
  'mediumblob',
  'longblob',
]);
const MYSQL_PREFIX_LENGTH = 255;

export function createScript(document: DiagramDocument): SqlScript {
  const dialect = DIALECTS[document.driver];
  const plan = declarationPlan(document);
  const statements: string[] = [...preamble(document, dialect)];
  for (const { table, inline } of plan.tables) statements.push(...createTable(dialect, table, inline));
  for (const key of plan.deferred)
    statements.push(`ALTER TABLE ${dialect.table(key.table)} ADD ${foreignKeyClause(dialect, key)}`);
  if (document.driver === 'pgsql')
    for (const { sequence, table, column } of sequenceUses(document))
      if (sameSchema(sequence, table.name))
        statements.push(
          `ALTER SEQUENCE ${sequence} OWNED BY ${dialect.table(table.name)}.${dialect.ident(column.name)}`,
        );
  return scriptOf(document.driver, statements);
}

/**
 * Where the script declares each foreign key: inside its table's CREATE TABLE when the referenced table
 * exists by then, else in an ALTER TABLE after every table (the order MySQL numbers unnamed keys in).
 */
export function declarationPlan(document: DiagramDocument): {
  tables: { table: DocumentTable; inline: ForeignKey[] }[];
  deferred: ForeignKey[];
} {
  const keys = foreignKeys(document);
  const created = new Set<string>();
  const tables: { table: DocumentTable; inline: ForeignKey[] }[] = [];
  const deferred: ForeignKey[] = [];
  for (const table of dependencyOrder(document.tables, keys)) {
    created.add(table.name);
    const own = keys.filter((key) => key.table === table.name);
    tables.push({ table, inline: own.filter((key) => created.has(key.refTable)) });
    deferred.push(...own.filter((key) => !created.has(key.refTable)));
  }
  return { tables, deferred };
}

export function scriptOf(driver: DiagramDocument['driver'], statements: string[]): SqlScript {
  const terminator = driver === 'sqlsrv' ? ';\nGO\n\n' : ';\n\n';
  return {
    statements,
    sql: statements.length === 0 ? '' : statements.join(terminator) + terminator.trimEnd() + '\n',
  };
}

/** The sequence named by a PostgreSQL `nextval('…')` default, as the default writes it, or null. */
function sequenceOf(column: Column): string | null {
  const sequence = /\bnextval\s*\(\s*'((?:[^']|'')+)'/i.exec(column.default ?? '')?.[1];
  return sequence === undefined ? null : sequence.replaceAll("''", "'");
}

/** Each sequence the defaults use, with the first column that uses it (its owner), in name order. */
function sequenceUses(
  document: DiagramDocument,
): { sequence: string; table: DocumentTable; column: Column }[] {
  const uses = new Map<string, { sequence: string; table: DocumentTable; column: Column }>();
  for (const table of document.tables)
    for (const column of table.columns) {
      const sequence = sequenceOf(column);
      if (sequence !== null && !uses.has(sequence)) uses.set(sequence, { sequence, table, column });
    }
  return [...uses.values()].sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
}

/** PostgreSQL owns a sequence by a column only in the sequence's own schema. */
function sameSchema(sequence: string, table: string): boolean {
  const dot = /^(?:"((?:[^"]|"")+)"|([^".]+))\./.exec(sequence);
  const sequenceSchema = dot === null ? 'public' : (dot[1]?.replaceAll('""', '"') ?? dot[2]?.toLowerCase());
  return sequenceSchema === (splitTableName(table)[0] ?? 'public');
}

/** Sequence types PostgreSQL has (`AS …`); a sequence for another type keeps the default, bigint. */
const SEQUENCE_TYPES = new Set(['smallint', 'integer', 'bigint']);

/** Schemas, enum types and sequences the tables need (PostgreSQL), schemas (SQL Server). */
function preamble(document: DiagramDocument, dialect: Dialect): string[] {
  const statements: string[] = [];
  const schemas = new Set(
    document.tables.map((table) => splitTableName(table.name)[0]).filter((schema) => schema !== null),
  );
  if (document.driver === 'pgsql') {
    for (const schema of [...schemas].sort())
      if (schema !== 'public') statements.push(`CREATE SCHEMA IF NOT EXISTS ${dialect.ident(schema)}`);
    const enumTypes = new Set<string>();
    for (const table of document.tables)
      for (const column of table.columns) {
        const enumType = column.driver_data_type_name === 'enum' ? pgEnumType(table.name, column) : null;
        if (enumType !== null && !enumTypes.has(enumType)) {
          enumTypes.add(enumType);
          const values = (column.driver_data_type_params?.values ?? []).map(dialect.string).join(', ');
          statements.push(`CREATE TYPE ${enumType} AS ENUM (${values})`);
        }
      }
    // The sequence name is written as the default writes it (already SQL: `public.a_id_seq`, `"A"`), typed
    // as its column (a dump's `AS integer`; PostgreSQL's own default is bigint).
    for (const { sequence, column } of sequenceUses(document)) {
      const type = SEQUENCE_TYPES.has(column.driver_data_type_name)
        ? ` AS ${column.driver_data_type_name}`
        : '';
      statements.push(`CREATE SEQUENCE IF NOT EXISTS ${sequence}${type}`);
    }
  }
  // MySQL: a table kept under another database's name (`shop.orders`) needs that database.
  if (document.driver === 'mysql')
    for (const schema of [...schemas].sort())
      statements.push(`CREATE DATABASE IF NOT EXISTS ${dialect.ident(schema)}`);
  if (document.driver === 'sqlsrv')
    for (const schema of [...schemas].sort())
      if (schema !== 'dbo')
        statements.push(
          `IF SCHEMA_ID(${dialect.string(schema)}) IS NULL EXEC(${dialect.string(`CREATE SCHEMA ${dialect.ident(schema)}`)})`,
        );
  return statements;
}

/**
 * A table's CREATE TABLE with its keys, then the indexes written apart and its comments; `inlineKeys` are
 * the foreign keys declared inside it (none when they are added later, as a migration does).
 */
export function createTable(dialect: Dialect, table: DocumentTable, inlineKeys: ForeignKey[] = []): string[] {
  const lines = table.columns.map((column) => dialect.column(table.name, column));
  const after: string[] = [];
  for (const key of tableKeys(table)) {
    // PostgreSQL writes unique keys as unique indexes too: a UNIQUE constraint identical to the primary key
    // in the same CREATE TABLE would be dropped silently.
    const separate =
      (key.type === 'index' && dialect.driver !== 'mysql') ||
      (key.type === 'unique' && dialect.driver === 'pgsql');
    if (separate) {
      after.push(addUniqueOrIndex(dialect, table, key));
      continue;
    }
    lines.push(keyClause(dialect, table, key));
  }
  for (const check of table.checks ?? []) lines.push(checkClause(dialect, check));
  for (const key of inlineKeys) lines.push(foreignKeyClause(dialect, key));
  let statement = `CREATE TABLE ${dialect.table(table.name)} (\n  ${lines.join(',\n  ')}\n)`;
  if (dialect.driver === 'mysql') statement += tableOptions(table);
  if (dialect.driver === 'mysql' && table.comment !== null)
    statement += ` COMMENT=${dialect.string(table.comment)}`;
  return [statement, ...after, ...comments(dialect, table)];
}

/** MySQL: the table's default character set and collation (` DEFAULT CHARSET=utf8mb4 COLLATE=…`). */
export function tableOptions(table: Pick<DocumentTable, 'charset' | 'collation'>): string {
  let options = '';
  if (table.charset !== undefined) options += ` DEFAULT CHARSET=${table.charset}`;
  if (table.collation !== undefined) options += ` COLLATE=${table.collation}`;
  return options;
}

/** A key inside CREATE TABLE (or ALTER TABLE … ADD): primary and unique keys, MySQL plain indexes. */
export function keyClause(dialect: Dialect, table: Pick<DocumentTable, 'columns'>, key: Key): string {
  const columns = keyColumns(dialect, table, key);
  if (dialect.driver === 'mysql') {
    const using = key.method === 'hash' ? ' USING HASH' : '';
    if (key.type === 'primary') return `PRIMARY KEY (${columns})${using}`;
    if (key.type === 'index' && (key.method === 'fulltext' || key.method === 'spatial'))
      return `${key.method.toUpperCase()} KEY ${dialect.ident(key.name)} (${columns})`;
    return `${key.type === 'unique' ? 'UNIQUE KEY' : 'KEY'} ${dialect.ident(key.name)} (${columns})${using}`;
  }
  const kind = key.type === 'primary' ? 'PRIMARY KEY' : 'UNIQUE';
  return `CONSTRAINT ${dialect.ident(key.name)} ${kind} (${columns})`;
}

/** A CHECK constraint inside CREATE TABLE (or ALTER TABLE … ADD). */
export function checkClause(dialect: Dialect, check: Check): string {
  return `CONSTRAINT ${dialect.ident(check.name)} CHECK (${check.expression})`;
}

/**
 * A PostgreSQL unique key or a plain index written apart from CREATE TABLE: a UNIQUE constraint (by
 * ALTER TABLE, after the table: inside it, one identical to the primary key would be dropped silently)
 * when it was declared as one, else CREATE [UNIQUE] INDEX.
 */
export function addUniqueOrIndex(
  dialect: Dialect,
  table: Pick<DocumentTable, 'name' | 'columns'>,
  key: Key,
): string {
  if (dialect.driver === 'pgsql' && key.type === 'unique' && key.is_constraint === true)
    return `ALTER TABLE ${dialect.table(table.name)} ADD ${keyClause(dialect, table, key)}`;
  return createIndex(dialect, table, key);
}

/** CREATE INDEX for a plain index (PostgreSQL and SQL Server; MySQL declares it in the table). */
export function createIndex(
  dialect: Dialect,
  table: Pick<DocumentTable, 'name' | 'columns'>,
  key: Key,
): string {
  const unique = key.type === 'unique' ? 'UNIQUE ' : '';
  const using = dialect.driver === 'pgsql' && key.method !== undefined ? ` USING ${key.method}` : '';
  return `CREATE ${unique}INDEX ${dialect.ident(key.name)} ON ${dialect.table(table.name)}${using} (${keyColumns(dialect, table, key)})`;
}

function keyColumns(dialect: Dialect, table: Pick<DocumentTable, 'columns'>, key: Key): string {
  return key.columns
    .map((name) => {
      const column = table.columns.find((c) => c.name === name);
      // FULLTEXT and SPATIAL indexes take whole columns.
      const prefix =
        dialect.driver === 'mysql' &&
        key.method !== 'fulltext' &&
        key.method !== 'spatial' &&
        column &&
        MYSQL_PREFIX_TYPES.has(column.driver_data_type_name)
          ? `(${MYSQL_PREFIX_LENGTH})`
          : '';
      return dialect.ident(name) + prefix;
    })
    .join(', ');
}

export function foreignKeyClause(dialect: Dialect, key: ForeignKey): string {
  const name = key.name === null ? '' : `CONSTRAINT ${dialect.ident(key.name)} `;
  let clause = `${name}FOREIGN KEY (${key.columns.map(dialect.ident).join(', ')}) REFERENCES ${dialect.table(
    key.refTable,
  )} (${key.refColumns.map(dialect.ident).join(', ')})`;
  if (key.onDelete !== null) clause += ` ON DELETE ${key.onDelete.toUpperCase()}`;
  if (key.onUpdate !== null) clause += ` ON UPDATE ${key.onUpdate.toUpperCase()}`;
  return clause;
}

/** Table and column comments: COMMENT ON (PostgreSQL), MS_Description (SQL Server); MySQL has them inline. */
function comments(dialect: Dialect, table: Pick<DocumentTable, 'name' | 'comment' | 'columns'>): string[] {
  const statements: string[] = [];
  if (table.comment !== null)
    statements.push(commentStatement(dialect, table.name, null, table.comment) ?? '');
  for (const column of table.columns)
    if (column.comment !== null)
      statements.push(commentStatement(dialect, table.name, column, column.comment) ?? '');
  return statements.filter((statement) => statement !== '');
}

/** The statement that sets (or, with null, removes) a comment; null where MySQL keeps it inline. */
export function commentStatement(
  dialect: Dialect,
  table: string,
  column: Column | null,
  comment: string | null,
): string | null {
  if (dialect.driver === 'mysql') return null;
  if (dialect.driver === 'pgsql') {
    const target =
      column === null
        ? `TABLE ${dialect.table(table)}`
        : `COLUMN ${dialect.table(table)}.${dialect.ident(column.name)}`;
    return `COMMENT ON ${target} IS ${comment === null ? 'NULL' : dialect.string(comment)}`;
  }
  const [schema, bare] = splitTableName(table);
  const level = `N'SCHEMA', ${dialect.string(schema ?? 'dbo')}, N'TABLE', ${dialect.string(bare)}${
    column === null ? '' : `, N'COLUMN', ${dialect.string(column.name)}`
  }`;
  if (comment === null) return `EXEC sp_dropextendedproperty N'MS_Description', ${level}`;
  return `EXEC sp_addextendedproperty N'MS_Description', ${dialect.string(comment)}, ${level}`;
}
