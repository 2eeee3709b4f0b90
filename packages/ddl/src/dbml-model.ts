// What DBML says that the DDL written from it cannot carry, read from @dbml/core's own model of the text:
// TableGroups (and their notes), sticky notes (`Note` blocks), expression defaults exactly as written, and
// where each table and column is in the DBML (for warnings). Plain reads with checked access: the model's
// typings are loose.
import { arr, isAst, obj, raw, str } from './ast';

export interface DbmlPlace {
  line: number;
  column: number;
}

export interface DbmlExtras {
  groups: { name: string; note: string | null; tables: string[] }[];
  notes: string[];
  /** Names of primary keys written in an `indexes` block (`[pk, name: '…']`), by table name. */
  primaryKeyNames: Map<string, string>;
  /** Table notes by table name (the MySQL DDL @dbml/core writes drops them). */
  tableNotes: Map<string, string>;
  /** Expression defaults as written (`now()`), by table name then column name. */
  expressionDefaults: Map<string, Map<string, string>>;
  /** Index methods (`type: hash`) and notes, by table name; matched by index name, else by columns. */
  indexSettings: Map<
    string,
    { name: string | null; columns: string[]; method: string | null; note: string | null }[]
  >;
  /** Enum type names of enum columns (`table.column` → `mood`, `sales.state`). */
  enumNames: Map<string, string>;
  /** Where each table (by name) and column (`table.column`) starts in the DBML. */
  places: Map<string, DbmlPlace>;
}

function placeOf(node: unknown): DbmlPlace | undefined {
  const start = obj(obj(node, 'token'), 'start');
  const line = raw(start, 'line');
  const column = raw(start, 'column');
  return typeof line === 'number' && typeof column === 'number' ? { line, column } : undefined;
}

/**
 * A table's name as the DDL readers name it: bare in the driver's default schema (`public` for
 * PostgreSQL, none for the others), else `schema.table`.
 */
export function dbmlTableName(schema: string | undefined, name: string, defaultSchema: string): string {
  return schema === undefined || schema === '' || schema === defaultSchema ? name : `${schema}.${name}`;
}

export function readDbmlExtras(database: unknown, defaultSchema: string): DbmlExtras {
  const extras: DbmlExtras = {
    groups: [],
    notes: [],
    tableNotes: new Map(),
    primaryKeyNames: new Map(),
    expressionDefaults: new Map(),
    indexSettings: new Map(),
    enumNames: new Map(),
    places: new Map(),
  };
  for (const schema of arr(database, 'schemas')) {
    const schemaName = str(schema, 'name');
    for (const table of arr(schema, 'tables')) {
      const name = dbmlTableName(schemaName, str(table, 'name') ?? '', defaultSchema);
      for (const index of arr(table, 'indexes')) {
        const indexName = str(index, 'name');
        if (raw(index, 'pk') === true && indexName !== undefined) extras.primaryKeyNames.set(name, indexName);
        const method = str(index, 'type');
        const note = raw(index, 'note');
        if ((method !== undefined && method !== '') || (typeof note === 'string' && note !== '')) {
          const list = extras.indexSettings.get(name) ?? [];
          list.push({
            name: indexName ?? null,
            columns: arr(index, 'columns').map((column) => String(raw(column, 'value') ?? '')),
            method: method === undefined || method === '' ? null : method.toLowerCase(),
            note: typeof note === 'string' && note !== '' ? note : null,
          });
          extras.indexSettings.set(name, list);
        }
      }
      const note = raw(table, 'note');
      if (typeof note === 'string') extras.tableNotes.set(name, note);
      const place = placeOf(table);
      if (place) extras.places.set(name, place);
      for (const field of arr(table, 'fields')) {
        const column = str(field, 'name') ?? '';
        const fieldPlace = placeOf(field);
        if (fieldPlace) extras.places.set(`${name}.${column}`, fieldPlace);
        const enumNode = obj(field, '_enum');
        const enumName = str(enumNode, 'name');
        if (enumName !== undefined)
          extras.enumNames.set(
            `${name}\u0000${column}`,
            dbmlTableName(str(obj(field, 'type'), 'schemaName') ?? undefined, enumName, defaultSchema),
          );
        const dbdefault = obj(field, 'dbdefault');
        const value = raw(dbdefault, 'value');
        if (str(dbdefault, 'type') === 'expression' && typeof value === 'string') {
          const defaults = extras.expressionDefaults.get(name) ?? new Map<string, string>();
          defaults.set(column, value);
          extras.expressionDefaults.set(name, defaults);
        }
      }
    }
    for (const group of arr(schema, 'tableGroups')) {
      const note = raw(group, 'note');
      extras.groups.push({
        name: str(group, 'name') ?? '',
        note: typeof note === 'string' && note !== '' ? note : null,
        tables: arr(group, 'tables').map((table) =>
          dbmlTableName(
            str(obj(table, 'schema'), 'name') ?? schemaName,
            str(table, 'name') ?? '',
            defaultSchema,
          ),
        ),
      });
    }
  }
  for (const note of arr(database, 'notes')) {
    const content = raw(note, 'content');
    if (typeof content === 'string' && isAst(note)) extras.notes.push(content);
  }
  return extras;
}

/** The DBML place of a warning about the DDL written from it: its column's, else its table's. */
export function placeOfWarning(
  extras: DbmlExtras,
  warning: { message: string; statement: string },
): DbmlPlace | undefined {
  const column =
    /^([^\s:]+\.[^\s:.]+):/.exec(warning.message)?.[1] ??
    /^table `([^`]+)`: column `([^`]+)`/.exec(warning.message)?.slice(1, 3).join('.');
  if (column !== undefined && extras.places.has(column)) return extras.places.get(column);
  const quoted =
    /(?:create\s+table|alter\s+table|\bon)\s+((?:["`[][^"`\]]+["`\]]\s*\.\s*)?["`[][^"`\]]+["`\]])/i.exec(
      warning.statement,
    )?.[1];
  if (quoted === undefined) return undefined;
  const parts = quoted.split(/\s*\.\s*/).map((part) => part.slice(1, -1));
  return extras.places.get(parts.join('.')) ?? extras.places.get(parts.at(-1) ?? '');
}
