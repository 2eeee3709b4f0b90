// DBML in: @dbml/core reads the DBML and writes it as DDL of the diagram's driver (its exporter maps DBML
// types, settings, indexes, enums, notes and references to CREATE statements), and that DDL is imported by
// the same readers, type catalog and limits as any DDL. A DBML error is `ddl_syntax_error` at its DBML line
// and column. What that DDL cannot carry is read from @dbml/core's model of the DBML itself
// (src/dbml-model.ts): TableGroups and their notes become groups and sticky notes, Note blocks sticky notes,
// expression defaults stay as written, and warnings point at the DBML line of the table or column they are
// about (line 1, column 1 with the DDL statement when they are about neither).
import { INDEX_METHODS, type IndexMethod } from '@dss/schema';
import { dbmlCoreLite } from './dbml-core-lite';
import { type DbmlExtras, placeOfWarning, readDbmlExtras } from './dbml-model';
import { type ConvertOptions, convertDdl } from './index';
import type { ConvertResult, DdlDriver } from './result';

const EXPORT_FORMATS: Record<DdlDriver, 'postgres' | 'mysql' | 'mssql'> = {
  pgsql: 'postgres',
  mysql: 'mysql',
  sqlsrv: 'mssql',
};

const START = { line: 1, column: 1 };

/** `sales.orders_status_enum`: the enum name the DBML export gives an enum column without one. */
function madeUpEnumName(table: string, column: string): string {
  const dot = table.indexOf('.');
  const bare = dot < 0 ? table : table.slice(dot + 1);
  const name = `${bare}_${column}_enum`.slice(0, 63);
  return dot < 0 ? name : `${table.slice(0, dot)}.${name}`;
}

function isIndexMethod(value: string): value is IndexMethod {
  return (INDEX_METHODS as readonly string[]).includes(value);
}

interface DbmlDiagnostic {
  message?: string;
  location?: { start?: { line?: number; column?: number } };
}

/** The first diagnostic of a @dbml/core error (it throws `{diags: [...]}` or an Error). */
function firstDiagnostic(error: unknown): { message: string; line: number; column: number } {
  const diags = (error as { diags?: DbmlDiagnostic[] } | null)?.diags;
  const first = Array.isArray(diags) ? diags[0] : undefined;
  if (first)
    return {
      message: first.message ?? 'the DBML could not be read',
      line: first.location?.start?.line ?? 1,
      column: first.location?.start?.column ?? 1,
    };
  return {
    message: error instanceof Error ? error.message : 'the DBML could not be read',
    line: 1,
    column: 1,
  };
}

export async function convertDbml(
  driver: DdlDriver,
  text: string,
  options: ConvertOptions = {},
): Promise<ConvertResult> {
  const source = text.replace(/^\uFEFF/, '');
  let sql: string;
  let extras: DbmlExtras;
  try {
    extras = readDbmlExtras(dbmlCoreLite().parseDbml(source), 'public');
    sql = dbmlCoreLite().exporter.export(source, EXPORT_FORMATS[driver]);
    // `[type: fulltext]` is written `USING FULLTEXT`, which MySQL does not read: a FULLTEXT index is a kind.
    if (driver === 'mysql')
      sql = sql.replace(
        /^CREATE INDEX (`(?:[^`]|``)+`) ON (\S+) (\(.*\)) USING (FULLTEXT|SPATIAL);$/gim,
        'CREATE $4 INDEX $1 ON $2 $3;',
      );
  } catch (error) {
    const { message, line, column } = firstDiagnostic(error);
    return { ok: false, code: 'ddl_syntax_error', message: `DBML: ${message}`, line, column };
  }
  const result = await convertDdl(driver, sql, {
    ...options,
    beforeDocument: (builder) => {
      // Expression defaults as the DBML wrote them (the DDL writer wraps them in parentheses).
      for (const [table, defaults] of extras.expressionDefaults)
        for (const [name, value] of defaults) {
          const column = builder.column(table, name);
          if (column) column.default = value;
        }
      // Primary-key names (the DDL @dbml/core writes for PostgreSQL and SQL Server leaves them out).
      for (const [name, keyName] of extras.primaryKeyNames) {
        const primary = builder.table(name)?.indexes.find((index) => index.type === 'primary');
        if (primary && builder.driver !== 'mysql') primary.name = keyName;
      }
      // Index methods and notes (`[type: hash, note: '…']`), matched by name, else by columns.
      for (const [name, settings] of extras.indexSettings) {
        const table = builder.table(name);
        if (!table) continue;
        for (const setting of settings) {
          const index =
            table.indexes.find((candidate) => setting.name !== null && candidate.name === setting.name) ??
            table.indexes.find(
              (candidate) =>
                setting.name === null && candidate.columns.join('\u0000') === setting.columns.join('\u0000'),
            );
          if (!index) continue;
          if (setting.method !== null && isIndexMethod(setting.method) && setting.method !== 'btree')
            index.method = setting.method;
          if (setting.note !== null) index.note = setting.note;
        }
      }
      // An enum's own name (the MySQL DDL written from DBML has its values inline). The name the DBML
      // export makes up for an enum without one (`<table>_<column>_enum`) is no name of its own.
      for (const [key, enumName] of extras.enumNames) {
        const [table, name] = key.split('\u0000') as [string, string];
        const column = builder.column(table, name);
        if (column?.type.name !== 'enum') continue;
        if (enumName === `${table}_${name}_enum`.slice(0, 63) || enumName === madeUpEnumName(table, name))
          delete column.enumName;
        else column.enumName = enumName;
      }
      for (const [name, note] of extras.tableNotes) {
        const table = builder.table(name);
        if (table) table.comment = note;
      }
      for (const group of extras.groups) {
        builder.groups.push({ name: group.name, tables: group.tables });
        if (group.note !== null) builder.notes.push({ content: group.note, group: group.name });
      }
      for (const content of extras.notes) builder.notes.push({ content, group: null });
      options.beforeDocument?.(builder);
    },
  });
  if (!result.ok)
    return { ...result, message: `${result.message} (in the DDL written from the DBML)`, line: 1, column: 1 };
  return {
    ...result,
    warnings: result.warnings.map((warning) => ({
      ...warning,
      ...(placeOfWarning(extras, warning) ?? START),
    })),
  };
}
