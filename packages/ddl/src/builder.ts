// Collects what the dialect readers find (tables, columns, keys, indexes, comments, foreign keys) and turns
// it into a diagram document: a `Patch` built from the collected schema is applied to an empty document,
// so UUIDs, defaults of the model and the layout all come from the schema package's `apply`.
import {
  apply,
  type DiagramDocument,
  type Driver,
  emptyDocument,
  type Patch,
  type PatchColumn,
  type PatchRelationship,
  parseDataType,
  type ResolvedDataType,
} from '@dss/schema';

export interface DdlColumn {
  name: string;
  /** The type as written (for messages). */
  written: string;
  type: ResolvedDataType;
  default: string | null;
  nullable: boolean;
  primary: boolean;
  unique: boolean;
  autoIncrement: boolean;
  unsigned: boolean;
  comment: string | null;
}

export interface DdlIndex {
  name: string;
  type: 'primary' | 'unique' | 'index';
  columns: string[];
}

export interface DdlForeignKey {
  name: string | null;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: string | null;
  onUpdate: string | null;
}

export interface DdlTable {
  name: string;
  comment: string | null;
  columns: DdlColumn[];
  indexes: DdlIndex[];
}

/** Type used when a written type is not in the driver's catalog (extension and user-defined types). */
const FALLBACK_TYPE: Record<Driver, string> = { mysql: 'text', pgsql: 'text', sqlsrv: 'nvarchar' };

export class SchemaBuilder {
  readonly tables = new Map<string, DdlTable>();
  readonly foreignKeys: DdlForeignKey[] = [];
  readonly warnings: string[] = [];
  skipped = 0;

  constructor(readonly driver: Driver) {}

  warn(message: string): void {
    if (this.warnings.length < 200) this.warnings.push(message);
  }

  /** Resolves a written type; unknown types fall back to a text type with a warning. */
  resolveType(
    table: string,
    column: string,
    written: string,
    enumValues?: string[],
  ): { type: ResolvedDataType; unsigned: boolean } {
    const resolution = parseDataType(this.driver, written, enumValues ? { enum_values: enumValues } : {});
    if (resolution.ok) return { type: resolution.type, unsigned: resolution.modifiers.unsigned === true };
    const fallback = FALLBACK_TYPE[this.driver];
    this.warn(
      `${table}.${column}: type "${written}" is not in the ${this.driver} catalog (${resolution.message}); imported as ${fallback}`,
    );
    return { type: { name: fallback, params: null }, unsigned: false };
  }

  addTable(name: string): DdlTable {
    const existing = this.tables.get(name);
    if (existing) {
      this.warn(`table ${name} is defined twice; the later definition is kept`);
    }
    const table: DdlTable = { name, comment: null, columns: [], indexes: [] };
    this.tables.set(name, table);
    return table;
  }

  table(name: string): DdlTable | undefined {
    return this.tables.get(name);
  }

  column(table: string, name: string): DdlColumn | undefined {
    return this.tables.get(table)?.columns.find((column) => column.name === name);
  }

  addIndex(tableName: string, index: DdlIndex): void {
    const table = this.tables.get(tableName);
    if (!table) {
      this.warn(`index ${index.name} is on unknown table ${tableName}; skipped`);
      return;
    }
    const missing = index.columns.filter((name) => !table.columns.some((c) => c.name === name));
    if (index.columns.length === 0 || missing.length > 0) {
      this.warn(
        `index ${index.name} on ${tableName} names no plain columns or unknown ones (${missing.join(', ')}); skipped`,
      );
      return;
    }
    if (index.type === 'primary') {
      table.indexes = table.indexes.filter((existing) => existing.type !== 'primary');
      for (const column of table.columns) {
        if (index.columns.includes(column.name)) {
          column.primary = true;
          column.nullable = false;
        }
      }
    }
    if (index.type === 'unique' && index.columns.length === 1) {
      const column = table.columns.find((c) => c.name === index.columns[0]);
      if (column) column.unique = true;
    }
    const sameName = table.indexes.findIndex((existing) => existing.name === index.name);
    if (sameName >= 0) table.indexes[sameName] = index;
    else table.indexes.push(index);
  }

  addForeignKey(foreignKey: DdlForeignKey): void {
    this.foreignKeys.push(foreignKey);
  }

  /** The document: every collected table and the foreign keys whose ends exist. */
  toDocument(): DiagramDocument {
    const patch: Patch = {
      strategy: 'merge',
      tables: [...this.tables.values()].map((table) => ({
        name: table.name,
        ...(table.comment !== null ? { comment: table.comment } : {}),
        columns: table.columns.map((column) => this.patchColumn(table, column)),
        indexes: table.indexes.map((index) => ({ ...index, columns: [...index.columns] })),
      })),
      groups: [],
      relationships: [],
      sticky_notes: [],
      deletions: {
        tables: [],
        columns: [],
        indexes: [],
        relationships: [],
        groups: [],
        sticky_notes: [],
      },
    };
    const actions = new Map<string, DdlForeignKey>();
    const seen = new Set<string>();
    for (const fk of this.foreignKeys) {
      for (const relationship of this.relationshipsOf(fk)) {
        const key = endpointKey(relationship);
        const reverse = endpointKey({
          source_table: relationship.target_table,
          source_column: relationship.target_column,
          target_table: relationship.source_table,
          target_column: relationship.source_column,
        });
        if (seen.has(key) || seen.has(reverse)) {
          this.warn(`foreign key ${describe(fk)} links the same columns as another one; kept once`);
          continue;
        }
        seen.add(key);
        actions.set(key, fk);
        patch.relationships.push(relationship);
      }
    }
    const { document } = apply(emptyDocument(this.driver), patch);
    document.relationships = document.relationships.map((relationship) => {
      const fk = actions.get(endpointKey(relationship));
      return fk
        ? { ...relationship, name: fk.name, on_delete: fk.onDelete, on_update: fk.onUpdate }
        : relationship;
    });
    return document;
  }

  private patchColumn(table: DdlTable, column: DdlColumn): PatchColumn {
    const indexed = table.indexes.some(
      (index) => index.type === 'index' && index.columns.length === 1 && index.columns[0] === column.name,
    );
    return {
      name: column.name,
      type: column.written,
      data_type: column.type,
      is_primary_key: column.primary,
      is_auto_increment: column.autoIncrement,
      is_nullable: column.primary ? false : column.nullable,
      is_unique_key: column.unique,
      is_index: indexed,
      is_unsigned: column.unsigned,
      ...(column.default !== null ? { default: column.default } : {}),
      ...(column.comment !== null ? { comment: column.comment } : {}),
    };
  }

  /**
   * The relationships of a foreign key: one per column pair. The spec's relationship links one column to
   * one column, so a composite key (a, b) → (x, y) becomes a → x and b → y, both with the key's name and
   * actions; no pair is lost.
   */
  private relationshipsOf(fk: DdlForeignKey): PatchRelationship[] {
    const source = this.tables.get(fk.table);
    const target = this.tables.get(fk.refTable);
    if (!source || !target) {
      this.warn(
        `foreign key ${describe(fk)}: table ${source ? fk.refTable : fk.table} is not defined; skipped`,
      );
      return [];
    }
    const targetColumns = fk.refColumns.length > 0 ? fk.refColumns : primaryColumnsOf(target);
    if (
      fk.columns.length === 0 ||
      targetColumns.length !== fk.columns.length ||
      !fk.columns.every((name) => source.columns.some((c) => c.name === name)) ||
      !targetColumns.every((name) => target.columns.some((c) => c.name === name))
    ) {
      this.warn(`foreign key ${describe(fk)}: a column is not defined; skipped`);
      return [];
    }
    const type = isUniqueAlone(source, fk.columns) ? 'one-to-one' : 'many-to-one';
    return fk.columns.map((sourceColumn, at) => ({
      type,
      source_table: fk.table,
      source_column: sourceColumn,
      target_table: fk.refTable,
      target_column: targetColumns[at] as string,
    }));
  }
}

function primaryColumnsOf(table: DdlTable): string[] {
  return table.indexes.find((index) => index.type === 'primary')?.columns ?? [];
}

/** True when exactly these columns form the primary key or a unique key of the table. */
function isUniqueAlone(table: DdlTable, columns: string[]): boolean {
  const same = (other: string[]) =>
    other.length === columns.length && other.every((name) => columns.includes(name));
  if (table.indexes.some((index) => index.type !== 'index' && same(index.columns))) return true;
  if (columns.length !== 1) return false;
  const column = table.columns.find((c) => c.name === columns[0]);
  const primaryColumns = table.columns.filter((c) => c.primary);
  return column !== undefined && (column.unique || (column.primary && primaryColumns.length === 1));
}

function endpointKey(r: {
  source_table: string;
  source_column: string;
  target_table: string;
  target_column: string;
}): string {
  return [r.source_table, r.source_column, r.target_table, r.target_column].join('\u0000');
}

function describe(fk: DdlForeignKey): string {
  return `${fk.name ?? ''}${fk.name ? ' ' : ''}(${fk.table}.${fk.columns.join(',')} → ${fk.refTable})`;
}
