// Reads a live MySQL or MariaDB schema into the importer's SchemaBuilder through information_schema only
// (SELECT on the tables themselves is what lets a user see them there; nothing else is needed or done).
import type { SchemaBuilder } from '@dss/ddl';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { loadMysql } from '../mysql-driver';
import type { DatabaseTarget } from './target';

const INTEGER_WIDTH = /^(tinyint|smallint|mediumint|int|bigint)\(\d+\)/;

/**
 * COLUMN_TYPE as a dump writes it: integer display widths dropped (deprecated; the server shows its default
 * whether written or not), except `tinyint(1)`, which is how BOOLEAN is stored and dumped.
 */
function writtenType(columnType: string, isJson: boolean): string {
  const type = columnType.toLowerCase();
  if (isJson) return 'json';
  if (/^tinyint\(1\)/.test(type)) return type;
  // The values travel separately (enumValues), as the DDL import passes them.
  if (/^(enum|set)\(/.test(type)) return type.slice(0, type.indexOf('('));
  // YEAR(4) is the only YEAR there is; the display width is noise.
  if (type === 'year(4)') return 'year';
  return type.replace(INTEGER_WIDTH, '$1');
}

/** `enum('a','it''s')` → its values. */
function enumValues(columnType: string): string[] | undefined {
  const match = /^(?:enum|set)\((.*)\)$/is.exec(columnType);
  if (!match) return undefined;
  return [...(match[1] ?? '').matchAll(/'((?:[^']|'')*)'/g)].map((value) =>
    (value[1] ?? '').replaceAll("''", "'"),
  );
}

export async function readMysql(target: DatabaseTarget, builder: SchemaBuilder): Promise<string[]> {
  const database = decodeURIComponent(target.url.pathname.replace(/^\//, ''));
  const connection = await (await loadMysql()).createConnection({
    host: target.url.hostname,
    port: Number(target.url.port || 3306),
    user: decodeURIComponent(target.url.username),
    password: decodeURIComponent(target.url.password),
    database,
    connectTimeout: 10_000,
  });
  try {
    return await readSchema(connection, database, builder);
  } finally {
    await connection.end();
  }
}

async function rows(connection: Connection, sql: string, database: string): Promise<RowDataPacket[]> {
  const [result] = await connection.query<RowDataPacket[]>(sql, [database]);
  return result;
}

/** Reads one schema through a connection the caller holds (`dss check` uses its own). */
export async function readSchema(
  connection: Connection,
  database: string,
  builder: SchemaBuilder,
): Promise<string[]> {
  const warnings: string[] = [];
  for (const row of await rows(
    connection,
    `SELECT TABLE_NAME AS name, TABLE_TYPE AS kind, TABLE_COMMENT AS comment FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME`,
    database,
  )) {
    if (row.kind !== 'BASE TABLE') {
      warnings.push(`view ${row.name}: views are not part of a diagram; skipped`);
      continue;
    }
    builder.addTable(row.name).comment = row.comment === '' ? null : row.comment;
  }
  // MariaDB stores JSON as LONGTEXT with a json_valid CHECK; that pair reads back as JSON.
  const jsonChecks = new Set(
    (
      await rows(
        connection,
        `SELECT TABLE_NAME AS t, CHECK_CLAUSE AS clause FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?`,
        database,
      ).catch(() => [])
    ).flatMap((row) => {
      const match = /^json_valid\(`([^`]+)`\)$/i.exec(String(row.clause).trim());
      return match ? [`${row.t}\u0000${match[1]}`] : [];
    }),
  );
  for (const row of await rows(
    connection,
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable,
            COLUMN_DEFAULT AS def, EXTRA AS extra, COLUMN_COMMENT AS comment
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    database,
  )) {
    const table = builder.table(row.t);
    if (!table) continue;
    const columnType = String(row.type);
    const isJson = /^longtext$/i.test(columnType) && jsonChecks.has(`${row.t}\u0000${row.name}`);
    const written = writtenType(columnType, isJson);
    const { type, unsigned } = builder.resolveType(table.name, row.name, written, enumValues(columnType));
    const def = row.def === null || row.def === 'NULL' ? null : String(row.def);
    table.columns.push({
      name: row.name,
      written,
      type,
      default: def,
      nullable: row.nullable === 'YES',
      primary: false,
      unique: false,
      autoIncrement: /auto_increment/i.test(String(row.extra)),
      unsigned,
      comment: row.comment === '' ? null : row.comment,
    });
  }
  await readForeignKeys(connection, database, builder);
  for (const index of groupIndexes(
    await rows(
      connection,
      `SELECT TABLE_NAME AS t, INDEX_NAME AS name, NON_UNIQUE AS non_unique, COLUMN_NAME AS col, INDEX_TYPE AS kind
         FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
      database,
    ),
  )) {
    // An index MySQL added by itself for a foreign key is kept: it exists, and lookups use it. FULLTEXT and
    // SPATIAL indexes are diagram indexes with their method, as an import of the same DDL gives them.
    const method = index.kind === 'FULLTEXT' ? 'fulltext' : index.kind === 'SPATIAL' ? 'spatial' : undefined;
    builder.addIndex(index.table, {
      name: index.name,
      type: index.name === 'PRIMARY' ? 'primary' : index.unique ? 'unique' : 'index',
      columns: index.columns,
      ...(method ? { method } : {}),
    });
  }
  return warnings;
}

interface IndexRows {
  table: string;
  name: string;
  unique: boolean;
  kind: string;
  columns: string[];
}

function groupIndexes(statistics: RowDataPacket[]): IndexRows[] {
  const grouped = new Map<string, IndexRows>();
  for (const row of statistics) {
    const key = `${row.t}\u0000${row.name}`;
    const entry = grouped.get(key) ?? {
      table: row.t,
      name: row.name,
      unique: Number(row.non_unique) === 0,
      kind: String(row.kind),
      columns: [] as string[],
    };
    entry.columns.push(row.col);
    grouped.set(key, entry);
  }
  return [...grouped.values()];
}

/** Adds the foreign keys, composite ones as one key with their columns in order. */
async function readForeignKeys(connection: Connection, database: string, builder: SchemaBuilder) {
  const keys = new Map<
    string,
    {
      table: string;
      name: string;
      refTable: string;
      columns: string[];
      refColumns: string[];
      onDelete: string | null;
      onUpdate: string | null;
    }
  >();
  for (const row of await rows(
    connection,
    `SELECT k.TABLE_NAME AS t, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS col, k.REFERENCED_TABLE_NAME AS rt,
            k.REFERENCED_COLUMN_NAME AS rc, r.DELETE_RULE AS on_delete, r.UPDATE_RULE AS on_update
       FROM information_schema.KEY_COLUMN_USAGE k
       LEFT JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
      WHERE k.TABLE_SCHEMA = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
    database,
  )) {
    const key = `${row.t}\u0000${row.name}`;
    const action = (rule: unknown) =>
      rule === null || /^(restrict|no action)$/i.test(String(rule)) ? null : String(rule).toLowerCase();
    const entry = keys.get(key) ?? {
      table: row.t,
      name: row.name,
      refTable: row.rt,
      columns: [] as string[],
      refColumns: [] as string[],
      onDelete: action(row.on_delete),
      onUpdate: action(row.on_update),
    };
    entry.columns.push(row.col);
    entry.refColumns.push(row.rc);
    keys.set(key, entry);
  }
  // MariaDB shows REFERENTIAL_CONSTRAINTS only to users with more than SELECT; the actions are then read
  // from SHOW CREATE TABLE, which SELECT allows.
  const hidden = await rows(
    connection,
    'SELECT COUNT(*) AS n FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?',
    database,
  );
  if (keys.size > 0 && Number(hidden[0]?.n ?? 0) === 0) await readActions(connection, keys);
  for (const key of keys.values()) builder.addForeignKey(key);
}

async function readActions(
  connection: Connection,
  keys: Map<string, { table: string; name: string; onDelete: string | null; onUpdate: string | null }>,
): Promise<void> {
  for (const table of new Set([...keys.values()].map((key) => key.table))) {
    const [result] = await connection.query<RowDataPacket[]>(
      `SHOW CREATE TABLE \`${table.replaceAll('`', '``')}\``,
    );
    const ddl = String(result[0]?.['Create Table'] ?? '');
    for (const match of ddl.matchAll(
      /CONSTRAINT `((?:[^`]|``)+)` FOREIGN KEY [^\n]*?REFERENCES [^\n]*?\)([^,\n]*)/g,
    )) {
      const key = keys.get(`${table}\u0000${(match[1] ?? '').replaceAll('``', '`')}`);
      if (!key) continue;
      const rule = (kind: string) =>
        new RegExp(`ON ${kind} (RESTRICT|CASCADE|SET NULL|NO ACTION|SET DEFAULT)`).exec(match[2] ?? '')?.[1];
      const action = (value: string | undefined) =>
        value === undefined || /^(RESTRICT|NO ACTION)$/.test(value) ? null : value.toLowerCase();
      key.onDelete = action(rule('DELETE'));
      key.onUpdate = action(rule('UPDATE'));
    }
  }
}
