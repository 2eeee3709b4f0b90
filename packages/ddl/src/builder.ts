// Collects what the dialect readers find (tables, columns, keys, indexes, comments, foreign keys) and turns
// it into a diagram document: a `Patch` built from the collected schema is applied to an empty document,
// so UUIDs, defaults of the model and the layout all come from the schema package's `apply`.
import {
  apply,
  type DiagramDocument,
  type Driver,
  emptyDocument,
  type IndexMethod,
  type Patch,
  type PatchColumn,
  type PatchRelationship,
  parseDataType,
  type ResolvedDataType,
} from '@dss/schema';
import { closestType, typeLabel } from './closest-type';
import { type DdlWarning, type DdlWarningCode, MAX_WARNINGS, shortStatement } from './result';

/** Where a warning points: a line and column of the script and the statement's text (already shortened). */
export interface Where {
  line: number;
  column: number;
  statement: string;
}

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
  /** `COLLATE` of the column as the server names the collation. */
  collation?: string;
  /** The enum type's own name (PostgreSQL `CREATE TYPE … AS ENUM`, DBML `enum`). */
  enumName?: string;
}

export interface DdlIndex {
  name: string;
  type: 'primary' | 'unique' | 'index';
  columns: string[];
  /** PostgreSQL: a UNIQUE constraint rather than a unique index. */
  constraint?: boolean;
  /** `USING hash`, MySQL `FULLTEXT`/`SPATIAL`; absent for the default (btree). */
  method?: IndexMethod;
  note?: string;
}

export interface DdlForeignKey {
  name: string | null;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: string | null;
  onUpdate: string | null;
  /** The statement that declared it (for warnings raised when the document is built). */
  where?: Where;
}

export interface DdlTable {
  name: string;
  comment: string | null;
  columns: DdlColumn[];
  indexes: DdlIndex[];
  /** CHECK constraints: name and the condition as written (without CHECK and its outer parentheses). */
  checks: { name: string; expression: string }[];
  /** MySQL: `DEFAULT CHARSET=` and `COLLATE=` of the table. */
  charset?: string;
  collation?: string;
}

/** Statement kinds that never shape a table, whatever follows (kept quiet when the parser rejects them). */
const NOT_SCHEMA_WORDS = [
  'set|use|lock|unlock|start|begin|commit|rollback|savepoint|release|insert|replace|update|delete|truncate|drop',
  'grant|revoke|deny|flush|analyze|optimize|check|checksum|repair|select|with|values|call|do|exec|execute',
  'print|declare|load|copy|vacuum|reindex|cluster|refresh|notify|listen|security|reset|discard|prepare',
  'deallocate|explain|show|handler|kill|purge|install|uninstall|raiserror|throw',
].join('|');
const NOT_SCHEMA_CREATED = [
  'view|trigger|procedure|proc|function|event|database|schema|user|role|login|sequence|extension|aggregate',
  'operator|rule|policy|publication|subscription|server|foreign\\s+data|text\\s+search|cast|collation|conversion',
  'language|tablespace|materialized|statistics|transform|access\\s+method|synonym|assembly|certificate|symmetric',
  'asymmetric|master|credential|fulltext|xml\\s+schema|partition',
].join('|');
const NOT_SCHEMA_ALTERED = [
  'database|schema|sequence|function|procedure|view|user|role|login|default|extension|event|aggregate|operator',
  'publication|subscription|server|text|materialized|trigger|policy|authorization',
].join('|');
const NOT_SCHEMA = new RegExp(
  `^\\s*(?:${NOT_SCHEMA_WORDS}|` +
    `create\\s+(?:or\\s+(?:replace|alter)\\s+)?(?:definer\\s*=\\s*\\S+\\s+)?` +
    `(?:(?:algorithm|sql\\s+security)\\s*=?\\s*\\w+\\s+)*(?:${NOT_SCHEMA_CREATED})|` +
    `alter\\s+(?:${NOT_SCHEMA_ALTERED}))\\b`,
  'i',
);

const NOWHERE: Where = { line: 1, column: 1, statement: '' };

export class SchemaBuilder {
  readonly tables = new Map<string, DdlTable>();
  readonly foreignKeys: DdlForeignKey[] = [];
  /** The first MAX_WARNINGS warnings; `warningsTotal` counts them all. */
  readonly warnings: DdlWarning[] = [];
  warningsTotal = 0;
  skipped = 0;
  /** The first statement that could not be read at all: the error when no table is readable. */
  firstFailure: { line: number; column: number; message: string } | null = null;
  /** The statement being read; warnings without a place of their own point at it. */
  here: Where = NOWHERE;
  /** Groups for the canvas (DBML TableGroups), each with the names of its tables. */
  readonly groups: { name: string; tables: string[] }[] = [];
  /** Sticky notes for the canvas (DBML Note blocks, TableGroup notes), with the group they sit in. */
  readonly notes: { content: string; group: string | null }[] = [];

  constructor(readonly driver: Driver) {}

  /** Sets the statement being read: its position in the script and its source text. */
  at(line: number, column: number, statement: string): void {
    this.here = { line, column, statement: shortStatement(statement) };
  }

  warn(code: DdlWarningCode, message: string, where: Partial<Where> = {}): void {
    this.warningsTotal++;
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push({ ...this.here, ...where, code, message });
  }

  /**
   * A statement that could not be read: skipped with a warning, and remembered if it is the first. A
   * statement of a kind that never shapes a table (`SET NAMES`, `LOCK TABLES`, a trigger or procedure the
   * parser lacks syntax for) is only counted: the import would ignore it even if it parsed.
   */
  unreadable(line: number, column: number, message: string, text: string): void {
    this.skipped++;
    if (NOT_SCHEMA.test(text)) return;
    this.firstFailure ??= { line, column, message: `line ${line}, column ${column}: ${message}` };
    this.warn('statement_skipped', `statement skipped: ${message}`, { line, column });
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
    const closest = closestType(this.driver, written);
    this.warn(
      'type_substituted',
      `${table}.${column}: type "${written}" is not in the ${this.driver} data-type catalog; imported as ${typeLabel(closest)}`,
    );
    return { type: closest, unsigned: false };
  }

  addTable(name: string): DdlTable {
    const existing = this.tables.get(name);
    if (existing) {
      this.warn('table_redefined', `table ${name} is defined twice; the later definition is kept`);
    }
    const table: DdlTable = { name, comment: null, columns: [], indexes: [], checks: [] };
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
      this.warn('index_skipped', `index ${index.name} is on unknown table ${tableName}; skipped`);
      return;
    }
    const missing = index.columns.filter((name) => !table.columns.some((c) => c.name === name));
    if (index.columns.length === 0 || missing.length > 0) {
      this.warn(
        'index_skipped',
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

  /** A CHECK constraint; a later one of the same name replaces it (as ALTER TABLE … ADD would fail to). */
  addCheck(tableName: string, name: string, expression: string): void {
    const table = this.tables.get(tableName);
    if (!table || expression === '') return;
    const same = table.checks.findIndex((check) => check.name === name);
    if (same >= 0) table.checks[same] = { name, expression };
    else table.checks.push({ name, expression });
  }

  addForeignKey(foreignKey: DdlForeignKey): void {
    this.foreignKeys.push({ ...foreignKey, where: foreignKey.where ?? this.here });
  }

  /** The document: every collected table and the foreign keys whose ends exist. */
  toDocument(): DiagramDocument {
    const parents = new Map<string, string>();
    for (const group of this.groups) for (const table of group.tables) parents.set(table, group.name);
    const patch: Patch = {
      strategy: 'merge',
      tables: [...this.tables.values()].map((table) => ({
        name: table.name,
        ...(parents.has(table.name) ? { parent_name: parents.get(table.name) as string } : {}),
        ...(table.comment !== null ? { comment: table.comment } : {}),
        columns: table.columns.map((column) => this.patchColumn(table, column)),
        indexes: table.indexes.map(({ constraint: _constraint, ...index }) => ({
          ...index,
          columns: [...index.columns],
        })),
        ...(table.checks.length > 0 ? { checks: table.checks.map((check) => ({ ...check })) } : {}),
        ...(table.charset !== undefined ? { charset: table.charset } : {}),
        ...(table.collation !== undefined ? { collation: table.collation } : {}),
      })),
      groups: this.groups.map((group) => ({ name: group.name })),
      relationships: [],
      sticky_notes: this.notes.map((note) => ({
        content: note.content,
        ...(note.group !== null ? { parent_name: note.group } : {}),
      })),
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
    this.nameCompositeKeys();
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
          this.warn(
            'foreign_key_duplicate',
            `foreign key ${describe(fk)} links the same columns as another one; kept once`,
            fk.where,
          );
          continue;
        }
        seen.add(key);
        actions.set(key, fk);
        patch.relationships.push(relationship);
      }
    }
    const { document } = apply(emptyDocument(this.driver), patch);
    // Unique constraints (the patch format has no field for them), matched by table and index name.
    for (const table of document.tables) {
      const constraints = this.tables.get(table.name)?.indexes.filter((index) => index.constraint === true);
      if (constraints === undefined || constraints.length === 0) continue;
      const names = new Set(constraints.map((index) => index.name));
      table.indexes = table.indexes.map((index) =>
        names.has(index.name) && index.type === 'unique' ? { ...index, is_constraint: true } : index,
      );
    }
    document.relationships = document.relationships.map((relationship) => {
      const fk = actions.get(endpointKey(relationship));
      return fk
        ? { ...relationship, name: fk.name, on_delete: fk.onDelete, on_update: fk.onUpdate }
        : relationship;
    });
    return document;
  }

  /**
   * An unnamed foreign key over several columns gets the name the server gives it: the model stores one
   * relationship per column pair, and only a shared name keeps the pairs one key in the export (three
   * one-column keys to a composite primary key would not load). PostgreSQL: `<table>_<columns>_fkey`;
   * MySQL/MariaDB: `<table>_ibfk_<n>`. SQL Server's names are random, so its keys keep no name.
   */
  private nameCompositeKeys(): void {
    const numbered = new Map<string, number>();
    for (const fk of this.foreignKeys) {
      if (fk.name !== null || fk.columns.length < 2 || this.driver === 'sqlsrv') continue;
      const short = fk.table.split('.').pop() ?? fk.table;
      if (this.driver === 'pgsql') fk.name = `${short}_${fk.columns.join('_')}_fkey`.slice(0, 63);
      else {
        const n = (numbered.get(fk.table) ?? 0) + 1;
        numbered.set(fk.table, n);
        fk.name = `${short}_ibfk_${n}`;
      }
    }
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
      ...(column.collation !== undefined ? { collation: column.collation } : {}),
      ...(column.enumName !== undefined ? { enum_name: column.enumName } : {}),
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
        'foreign_key_skipped',
        `foreign key ${describe(fk)}: table ${source ? fk.refTable : fk.table} is not defined; skipped`,
        fk.where,
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
      this.warn(
        'foreign_key_skipped',
        `foreign key ${describe(fk)}: a column is not defined; skipped`,
        fk.where,
      );
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
