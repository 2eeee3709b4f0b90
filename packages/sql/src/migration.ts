// The migration between two versions of a diagram: the statements that turn a database built from the
// first version's CREATE script into the second version's schema, in an order every server accepts:
//
//   drop foreign keys that go or change → (MySQL) take AUTO_INCREMENT off columns that lose it → drop keys
//   that go or change → rename tables, columns and keys → create new tables → add and alter columns → drop
//   columns and tables → create keys → (MySQL) give AUTO_INCREMENT → add foreign keys → comments →
//   (PostgreSQL) drop enum types nothing uses any more. MySQL (no rollback of DDL) renames right after the
//   checks, before the foreign keys are dropped, adds each foreign key it dropped only to add back right
//   after the last change under it (not with the others at the end), and lists a guarded recovery that
//   puts dropped foreign keys back as they were should a later statement fail.
//
// Records are matched by uuid, so a rename is a rename (data kept), never a drop and an add. Foreign keys
// that touch a column whose type changes, or a key that is re-created, are dropped and added back (MySQL
// refuses to change a column a foreign key uses). Statements that may lose data or fail on existing rows
// carry warnings naming the statement.
import {
  type Check as CheckConstraint,
  type Column,
  type DiagramDocument,
  type DocumentTable,
  type Driver,
  lookupDataType,
  takesCollation,
} from '@dss/schema';
import { type ForeignKey, foreignKeys, type Key, tableKeys } from './constraints';
import { type Check, integerRange, type Loss, lossOf, typeIdentity, violation } from './data-loss';
import {
  addUniqueOrIndex,
  checkClause,
  commentStatement,
  createTable,
  declarationPlan,
  foreignKeyClause,
  keyClause,
} from './create-script';
import {
  DIALECTS,
  type Dialect,
  defaultConstraintName,
  pgEnumType,
  pgNumberedByDefault,
  splitTableName,
} from './dialect';

export const MIGRATION_WARNING_CODES = [
  'drops_table',
  'drops_column',
  'narrows_type',
  'changes_type',
  'adds_not_null',
  'adds_not_null_without_default',
  'changes_primary_key',
  'adds_unique_key',
  'adds_foreign_key',
  'drops_key',
  'cannot_alter_identity',
  'adds_check',
] as const;
export type MigrationWarningCode = (typeof MIGRATION_WARNING_CODES)[number];

/**
 * What a statement can do to the data: `safe` keeps every value (it may fail, and then changes nothing);
 * `guarded` could change values, so a check before it stops the migration when a row would lose
 * something (the check statements themselves are `guarded` too); `destructive` deletes data by design.
 */
export const STATEMENT_SAFETY = ['safe', 'guarded', 'destructive'] as const;
export type StatementSafety = (typeof STATEMENT_SAFETY)[number];

export interface MigrationWarning {
  code: MigrationWarningCode;
  message: string;
  /** Index of the statement the warning is about in `statements`, counted from 0 as in the script. */
  statement: number;
}

export interface Migration {
  /** The script: a note on how it runs, then each statement after a `-- statement <n> (<safety>)` line. */
  sql: string;
  statements: string[];
  /** One per statement. */
  safety: StatementSafety[];
  warnings: MigrationWarning[];
  /**
   * MySQL/MariaDB, when the script drops foreign keys and adds them back: the statements that put them
   * back as they were if the script stops in between (also in the script's leading note). Absent else.
   */
  recovery?: string[];
}

interface TablePair {
  before: DocumentTable;
  after: DocumentTable;
}

interface ColumnPair {
  table: TablePair;
  before: Column;
  after: Column;
}

// The method is part of what an index is: a changed one is dropped and made again (a note is not SQL).
const keyShape = (key: Key) => `${key.type}|${key.method ?? 'btree'}|${key.columns.join(',')}`;

export function migrationScript(before: DiagramDocument, after: DiagramDocument): Migration {
  return new MigrationWriter(before, after).write();
}

class MigrationWriter {
  private readonly dialect: Dialect;
  private readonly statements: string[] = [];
  private readonly safety: StatementSafety[] = [];
  /** Keys written together with the auto-numbered column they need (MySQL). */
  private readonly writtenKeys = new Set<Key>();
  private readonly warnings: MigrationWarning[] = [];
  private readonly tablePairs: TablePair[] = [];
  private readonly addedTables: DocumentTable[];
  private readonly removedTables: DocumentTable[];
  private readonly columnPairs: ColumnPair[] = [];
  private readonly typeChanged = new Set<string>();
  /** MySQL: statements that put back the foreign keys dropped and re-added, should the script stop between. */
  private readonly recovery: string[] = [];
  /** The statements that drop the first foreign key and add the last one back. */
  private readonly foreignKeyWindow: { first?: number; last?: number } = {};
  /**
   * MySQL: foreign keys dropped and added back, each with the changes it waits for (`column:<uuid>`,
   * `drop:<n>`, `add:<n>`, …); it is added back as soon as the last of them is written.
   */
  private readonly waiting: { key: ForeignKey; fresh: boolean; needs: string[] }[] = [];
  /** The changes written so far that a waiting foreign key may need. */
  private readonly done = new Set<string>();
  /** Foreign keys already added back. */
  private readonly readded = new Set<ForeignKey>();

  constructor(
    private readonly before: DiagramDocument,
    private readonly after: DiagramDocument,
  ) {
    this.dialect = DIALECTS[after.driver];
    const beforeTables = new Map(before.tables.map((table) => [table.uuid, table]));
    const afterUuids = new Set(after.tables.map((table) => table.uuid));
    this.addedTables = after.tables.filter((table) => !beforeTables.has(table.uuid));
    this.removedTables = before.tables.filter((table) => !afterUuids.has(table.uuid));
    for (const table of after.tables) {
      const old = beforeTables.get(table.uuid);
      if (old === undefined) continue;
      const pair = { before: old, after: table };
      this.tablePairs.push(pair);
      const oldColumns = new Map(old.columns.map((column) => [column.uuid, column]));
      for (const column of table.columns) {
        const oldColumn = oldColumns.get(column.uuid);
        if (oldColumn === undefined) continue;
        this.columnPairs.push({ table: pair, before: oldColumn, after: column });
        if (typeIdentity(after.driver, oldColumn) !== typeIdentity(after.driver, column))
          this.typeChanged.add(column.uuid);
      }
    }
  }

  write(): Migration {
    const mysql = this.dialect.driver === 'mysql';
    const keys = this.keyChanges();
    const fks = this.foreignKeyChanges(keys.recreatedColumns);
    // Checks first: on MySQL, which cannot roll DDL back, a migration that stops on one has changed nothing.
    this.checks();
    if (mysql) {
      this.keyChecks(keys.add, fks);
      this.checkConstraintChecks();
    } else this.dropForeignKeys(fks);
    // Before any column goes: a dropped column takes its CHECK constraints with it on PostgreSQL.
    for (const { table, check } of this.checkChanges().drop)
      this.emit(
        `ALTER TABLE ${this.dialect.table(table.name)} DROP CONSTRAINT ${this.dialect.ident(check.name)}`,
      );
    // MySQL cannot roll back: the renames come before the foreign keys are dropped, so the keys stay
    // dropped only while the changes under them run, and the recovery names every table and column as it
    // is then. Every statement from here on names tables and columns by their new names.
    if (mysql) {
      this.renames(keys.renamed);
      this.recoveryFor(fks.remade, keys.drop);
      this.dropForeignKeys(fks);
      this.planReadds(fks, keys);
      for (const pair of this.columnPairs)
        if (pair.before.is_auto_increment && !pair.after.is_auto_increment) {
          this.emit(
            `ALTER TABLE ${this.dialect.table(pair.table.after.name)} MODIFY COLUMN ${this.dialect.column(
              pair.table.after.name,
              { ...pair.before, name: pair.after.name, is_auto_increment: false },
            )}`,
          );
          this.mark(`unnumber:${pair.after.uuid}`);
        }
      this.readdReady();
    }
    // MySQL: a primary key that is replaced is dropped and added in one statement (an AUTO_INCREMENT
    // column must stay a key at every moment).
    const replacedPrimary = (table: DocumentTable) =>
      mysql && keys.add.some((entry) => entry.table.uuid === table.uuid && entry.key.type === 'primary');
    for (const [n, { table, key, droppedColumns }] of keys.drop.entries()) {
      if (key.type === 'primary' && replacedPrimary(table)) continue;
      const at = this.emit(this.dropKey(mysql ? this.afterTable(table) : table, key));
      this.mark(`drop:${n}`);
      if (droppedColumns.length > 0 && key.type !== 'primary')
        this.warn(
          'drops_key',
          `${table.name}: the ${key.type === 'unique' ? 'unique key' : 'index'} ${key.name} (${key.columns.join(
            ', ',
          )}) goes with column ${droppedColumns.join(', ')}${
            key.type === 'unique'
              ? `; nothing keeps (${key.columns.filter((name) => !droppedColumns.includes(name)).join(', ')}) unique any more`
              : ''
          }`,
          at,
        );
    }
    if (!mysql) this.renames(keys.renamed);
    this.createEnumTypes();
    for (const table of this.addedTables) this.createTable(table);
    this.tableCharsets();
    this.columns(keys);
    const combined = (table: DocumentTable, key: Key) =>
      key.type === 'primary' &&
      replacedPrimary(table) &&
      keys.drop.some((entry) => entry.table.uuid === table.uuid && entry.key.type === 'primary');
    // MySQL: columns dropped from a table whose primary key is replaced go in the same statement, so the
    // key and the columns change together or not at all (a column of the old key cannot go first).
    const folded = new Set(
      keys.add.filter(({ table, key }) => combined(table, key)).map(({ table }) => table.uuid),
    );
    this.drops(folded);
    for (const [n, { table, key }] of keys.add.entries()) {
      if (this.writtenKeys.has(key)) {
        this.mark(`add:${n}`);
        continue;
      }
      const statement = this.addKey(table, key);
      if (!combined(table, key)) {
        this.warnKey(table, key, this.emit(statement));
        this.mark(`add:${n}`);
        continue;
      }
      const before = this.before.tables.find((entry) => entry.uuid === table.uuid);
      const gone = (before?.columns ?? []).filter(
        (column) => !table.columns.some((next) => next.uuid === column.uuid),
      );
      const dropColumns = gone.map((column) => `DROP COLUMN ${this.dialect.ident(column.name)}, `).join('');
      const at = this.emit(
        statement.replace(' ADD ', ` DROP PRIMARY KEY, ${dropColumns}ADD `),
        gone.length > 0 ? 'destructive' : 'safe',
      );
      this.warnKey(table, key, at);
      for (const column of gone)
        this.warn('drops_column', `${table.name}.${column.name}: the column and its data are deleted`, at);
      for (const [m, entry] of keys.drop.entries())
        if (entry.table.uuid === table.uuid && entry.key.type === 'primary') this.done.add(`drop:${m}`);
      this.mark(`add:${n}`);
    }
    if (this.dialect.driver === 'mysql')
      for (const pair of this.columnPairs)
        if (pair.after.is_auto_increment && !pair.before.is_auto_increment) {
          this.emit(
            `ALTER TABLE ${this.dialect.table(pair.table.after.name)} MODIFY COLUMN ${this.dialect.column(pair.table.after.name, pair.after)}`,
          );
          this.mark(`number:${pair.after.uuid}`);
        }
    for (const { table, check } of this.checkChanges().add) {
      const at = this.emit(
        `ALTER TABLE ${this.dialect.table(table.name)} ADD ${checkClause(this.dialect, check)}`,
      );
      this.warn(
        'adds_check',
        `${table.name}: CHECK ${check.name} fails if a row breaks it; check first: SELECT * FROM ${this.dialect.table(table.name)} WHERE NOT (${check.expression})`,
        at,
      );
    }
    for (const key of fks.add)
      if (!this.readded.has(key)) this.foreignKeyWindow.last = this.addForeignKey(key, fks.fresh.has(key));
    this.comments();
    this.dropEnumTypes();
    return this.result();
  }

  /** The statements with the script's frame: one transaction on PostgreSQL, strict mode on MySQL. */
  private result(): Migration {
    if (this.statements.length === 0) return { sql: '', statements: [], safety: [], warnings: [] };
    const { driver } = this.dialect;
    const statements = [...this.statements];
    const safety = [...this.safety];
    let shift = 0;
    let note: string[] = [];
    if (driver === 'pgsql') {
      statements.unshift('BEGIN');
      safety.unshift('safe');
      statements.push('COMMIT');
      safety.push('safe');
      shift = 1;
      note = [
        '-- PostgreSQL: one transaction; if any statement fails, nothing is changed.',
        '-- Checks (DO blocks) stop the migration when rows hold values a change would cut or round.',
      ];
    } else if (driver === 'mysql') {
      // Strict mode makes the server refuse a value that does not fit instead of cutting it.
      statements.unshift(
        "SET SESSION sql_mode = CONCAT_WS(',', NULLIF(@@SESSION.sql_mode, ''), 'STRICT_ALL_TABLES')",
      );
      safety.unshift('safe');
      shift = 1;
      note = [
        '-- MariaDB/MySQL cannot roll back DDL: every statement commits on its own. The checks come first',
        '-- (each reads rows into a temporary table that refuses any row), so a migration that stops on one',
        '-- has changed nothing; a statement that fails later leaves the statements before it applied.',
      ];
      const { first, last } = this.foreignKeyWindow;
      if (this.recovery.length > 0 && first !== undefined && last !== undefined)
        note.push(
          `-- Foreign keys are dropped from statement ${first + shift} (after the renames); each is added back right after the`,
          `-- columns and keys under it have changed, the last by statement ${last + shift}. If the script stops in between`,
          '-- (a row or an index that came after the checks, a lock timeout), those not yet back stay dropped: run the recovery below',
          '-- (MariaDB; each statement is guarded by IF [NOT] EXISTS and does nothing where nothing is to be done)',
          '-- to put them back as they were, with the types of their columns and the unique keys and indexes',
          '-- under them; the other statements that ran stay applied. Recovery:',
          ...this.recovery.map((statement) => `--   ${statement};`),
        );
    } else
      note = [
        '-- SQL Server: run with sqlcmd -b so that the first failing batch (a check that THROWs) stops the script.',
      ];
    const terminator = driver === 'sqlsrv' ? ';\nGO\n\n' : ';\n\n';
    const body = statements
      .map((statement, at) => `-- statement ${at} (${safety[at]})\n${statement}${terminator}`)
      .join('');
    return {
      sql: `${note.join('\n')}\n\n${body.trimEnd()}\n`,
      statements,
      safety,
      warnings: this.warnings.map((warning) => ({ ...warning, statement: warning.statement + shift })),
      ...(this.recovery.length > 0 ? { recovery: [...this.recovery] } : {}),
    };
  }

  private emit(statement: string, safety: StatementSafety = 'safe'): number {
    this.statements.push(statement);
    this.safety.push(safety);
    return this.statements.length - 1;
  }

  private warn(code: MigrationWarningCode, message: string, statement: number): void {
    this.warnings.push({ code, message, statement });
  }

  private warnKey(table: DocumentTable, key: Key, at: number): void {
    if (key.type === 'primary')
      this.warn(
        'changes_primary_key',
        `${table.name}: primary key (${key.columns.join(', ')}) fails if rows repeat a value or hold NULL; check first: ${this.repeatsQuery(table, key)}`,
        at,
      );
    else if (key.type === 'unique')
      this.warn(
        'adds_unique_key',
        `${table.name}: unique key ${key.name} (${key.columns.join(', ')}) fails if rows repeat a value; check first: ${this.repeatsQuery(table, key)}`,
        at,
      );
  }

  private repeatsQuery(table: DocumentTable, key: Key): string {
    const columns = key.columns.map(this.dialect.ident).join(', ');
    return `SELECT ${columns}, COUNT(*) FROM ${this.dialect.table(table.name)} GROUP BY ${columns} HAVING COUNT(*) > 1`;
  }

  /**
   * CHECK constraints of the tables on both sides, matched by name: one whose expression changed is
   * dropped (from the table as it was) and added again (to the table as it is).
   */
  private checkChanges(): {
    drop: { table: DocumentTable; check: CheckConstraint }[];
    add: { table: DocumentTable; check: CheckConstraint }[];
  } {
    const drop: { table: DocumentTable; check: CheckConstraint }[] = [];
    const add: { table: DocumentTable; check: CheckConstraint }[] = [];
    for (const { before, after } of this.tablePairs) {
      const next = new Map((after.checks ?? []).map((check) => [check.name, check.expression]));
      const old = new Map((before.checks ?? []).map((check) => [check.name, check.expression]));
      for (const check of before.checks ?? [])
        if (next.get(check.name) !== check.expression) drop.push({ table: before, check });
      for (const check of after.checks ?? [])
        if (old.get(check.name) !== check.expression) add.push({ table: after, check });
    }
    return { drop, add };
  }

  // --- checks --------------------------------------------------------------------------------------------

  /** A check before every change that could cut or round a value, or leave a NULL where none may be. */
  private checks(): void {
    for (const pair of this.columnPairs) {
      const loss = this.lossOf(pair);
      if (loss?.check) this.check(pair, loss.check, loss.what);
      // MySQL cannot roll back: a column that becomes NOT NULL is checked before anything changes.
      if (this.dialect.driver === 'mysql' && pair.before.is_nullable && !pair.after.is_nullable)
        this.check(pair, { kind: 'not_null' }, 'a NULL cannot stay');
      // MySQL cannot roll back: a string made an integer, which strict mode refuses for a value that is no
      // integer (or does not fit), is checked before anything changes.
      const range = integerRange(this.dialect.driver, pair.after);
      if (
        this.dialect.driver === 'mysql' &&
        range !== null &&
        this.typeChanged.has(pair.after.uuid) &&
        lookupDataType('mysql', pair.before.driver_data_type_name)?.family === 'string'
      ) {
        const column = this.dialect.ident(pair.before.name);
        const number = `CAST(${column} AS DECIMAL(65,0))`;
        this.refuseRows(
          `${pair.table.before.name}.${pair.before.name} converts to ${this.dialect.type(pair.table.after.name, pair.after)}`,
          `SELECT 1 AS found FROM ${this.dialect.table(pair.table.before.name)} WHERE ${column} IS NOT NULL AND (NOT (${column} REGEXP '^ *[+-]?[0-9]+ *$') OR ${number} < ${range[0]} OR ${number} > ${range[1]}) LIMIT 1`,
        );
      }
      // MySQL: a table converted to another character set converts its columns without a collation.
      const table = this.charsetChanges().find((entry) => entry.after.uuid === pair.table.after.uuid);
      const tableCharset =
        table === undefined ? null : (table.after.charset ?? charsetOf(table.after.collation));
      if (
        tableCharset !== null &&
        pair.after.collation === undefined &&
        takesCollation('mysql', pair.before.driver_data_type_name)
      ) {
        const name = this.dialect.table(pair.table.before.name);
        const column = this.dialect.ident(pair.before.name);
        this.refuseRows(
          `${pair.table.before.name}.${pair.before.name}: values not in ${tableCharset}`,
          `SELECT 1 AS found FROM ${name} WHERE CONVERT(${column} USING ${tableCharset}) <> ${column} LIMIT 1`,
        );
      }
      // MySQL: a collation of another character set converts the values; one with a character the new
      // set lacks would be refused half way (strict mode), so rows that do not survive stop it first.
      const charset = charsetOf(pair.after.collation);
      if (
        this.dialect.driver === 'mysql' &&
        charset !== null &&
        pair.before.collation !== pair.after.collation &&
        charset !== charsetOf(pair.before.collation)
      ) {
        const table = this.dialect.table(pair.table.before.name);
        const column = this.dialect.ident(pair.before.name);
        this.refuseRows(
          `${pair.table.before.name}.${pair.before.name}: values not in ${charset}`,
          `SELECT 1 AS found FROM ${table} WHERE CONVERT(${column} USING ${charset}) <> ${column} LIMIT 1`,
        );
      }
    }
  }

  /**
   * MySQL: stops the script when the query finds a row. The rows go into a temporary table whose CHECK
   * refuses any row, so the server answers ``CONSTRAINT `<message>` failed`` and nothing is left behind;
   * the table it makes when no row is found is dropped at once. The real tables are only read.
   */
  private refuseRows(message: string, query: string): void {
    const { dialect } = this;
    const name = dialect.ident(message.slice(0, 64).trimEnd());
    this.emit(
      `CREATE TEMPORARY TABLE ${dialect.ident('dss check')} (CONSTRAINT ${name} CHECK (0)) AS ${query}`,
      'guarded',
    );
    this.emit(`DROP TEMPORARY TABLE ${dialect.ident('dss check')}`, 'guarded');
  }

  /**
   * MySQL cannot roll back, so the keys that rows could refuse are checked before the first change as
   * well: a unique or primary key over repeated values, a foreign key over rows that point nowhere.
   */
  private keyChecks(
    keys: { table: DocumentTable; key: Key }[],
    fks: { add: ForeignKey[]; fresh: Set<ForeignKey> },
  ): void {
    const { dialect } = this;
    for (const { table, key } of keys) {
      if (key.type === 'index' || this.writtenKeys.has(key)) continue;
      const old = this.beforeNames(table.name, key.columns);
      if (old === null) continue;
      const columns = old.columns.map(dialect.ident);
      this.refuseRows(
        `${old.table}: rows repeat (${old.columns.join(', ')})`,
        `SELECT 1 AS found FROM ${dialect.table(old.table)} WHERE ${columns
          .map((name) => `${name} IS NOT NULL`)
          .join(' AND ')} GROUP BY ${columns.join(', ')} HAVING COUNT(*) > 1 LIMIT 1`,
      );
    }
    for (const key of fks.add) {
      if (!fks.fresh.has(key)) continue;
      const child = this.beforeNames(key.table, key.columns);
      const parent = this.beforeNames(key.refTable, key.refColumns);
      if (child === null || parent === null) continue;
      this.refuseRows(
        `${child.table} (${child.columns.join(', ')}): rows point to no ${parent.table}`,
        `SELECT 1 AS found FROM ${dialect.table(child.table)} c WHERE ${child.columns
          .map((name) => `c.${dialect.ident(name)} IS NOT NULL`)
          .join(' AND ')} AND NOT EXISTS (SELECT 1 FROM ${dialect.table(parent.table)} p WHERE ${child.columns
          .map((name, n) => `p.${dialect.ident(parent.columns[n] ?? name)} = c.${dialect.ident(name)}`)
          .join(' AND ')}) LIMIT 1`,
      );
    }
  }

  /**
   * MySQL: a CHECK constraint added to a table whose rows break it stops the script before the first
   * change. Only where the condition can be read against the table as it is: no column of it added or
   * renamed (else the server's own refusal of the ADD is the check).
   */
  private checkConstraintChecks(): void {
    for (const { table, check } of this.checkChanges().add) {
      const before = this.before.tables.find((entry) => entry.uuid === table.uuid);
      if (before === undefined) continue;
      const same =
        before.columns.length === table.columns.length &&
        table.columns.every((column) =>
          before.columns.some((old) => old.uuid === column.uuid && old.name === column.name),
        );
      if (!same) continue;
      this.refuseRows(
        `${before.name}: rows break CHECK ${check.name}`,
        `SELECT 1 AS found FROM ${this.dialect.table(before.name)} WHERE NOT (${check.expression}) LIMIT 1`,
      );
    }
  }

  /** The names a table and its columns had before the migration, or null when one of them is new. */
  private beforeNames(table: string, columns: string[]): { table: string; columns: string[] } | null {
    const after = this.after.tables.find((entry) => entry.name === table);
    const before = this.before.tables.find((entry) => entry.uuid === after?.uuid);
    if (after === undefined || before === undefined) return null;
    const names: string[] = [];
    for (const name of columns) {
      const uuid = after.columns.find((column) => column.name === name)?.uuid;
      const old = before.columns.find((column) => column.uuid === uuid);
      if (old === undefined) return null;
      names.push(old.name);
    }
    return { table: before.name, columns: names };
  }

  private lossOf({ before, after }: ColumnPair): Loss | null {
    if (!this.typeChanged.has(after.uuid)) return null;
    return lossOf(this.dialect.driver, before, after);
  }

  private check(pair: ColumnPair, check: Check, what: string): void {
    const { dialect } = this;
    const table = dialect.table(pair.table.before.name);
    const label = `${pair.table.before.name}.${pair.before.name}`;
    const type = dialect.type(pair.table.after.name, pair.after);
    const where = violation(dialect, pair.table.after.name, pair.before, pair.after, check);
    const message = `${label}: rows hold values that ${check.kind === 'not_null' ? 'NOT NULL' : type} cannot keep (${what}); nothing was changed`;
    if (dialect.driver === 'pgsql') {
      // RAISE reads % as a placeholder: the found count goes in the one left unescaped.
      const quote = (text: string) => text.replaceAll("'", "''").replaceAll('%', '%%');
      const literal = `'${quote(`${label}: `)}% row(s)${quote(` hold values that ${type} cannot keep (${what}); nothing was changed`)}'`;
      const body = [
        'DECLARE found bigint;',
        'BEGIN',
        `  LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE;`,
        `  SELECT count(*) INTO found FROM ${table} WHERE ${where};`,
        `  IF found > 0 THEN RAISE EXCEPTION ${literal}, found; END IF;`,
        'END',
      ].join('\n');
      let tag = '$check$';
      for (let n = 1; body.includes(tag); n += 1) tag = `$check${n}$`;
      this.emit(`DO ${tag}\n${body}\n${tag}`, 'guarded');
    } else if (dialect.driver === 'mysql')
      this.refuseRows(
        check.kind === 'not_null' ? `${label} holds no NULL` : `${label} fits ${type}`,
        `SELECT 1 AS found FROM ${table} WHERE ${where} LIMIT 1`,
      );
    else
      this.emit(
        `IF EXISTS (SELECT 1 FROM ${table} WHERE ${where}) THROW 50000, ${dialect.string(message)}, 1`,
        'guarded',
      );
  }

  // --- keys ----------------------------------------------------------------------------------------------

  /** Keys to drop (gone, or different columns), to add, and to rename only; columns whose keys are re-made. */
  private keyChanges() {
    const drop: { table: DocumentTable; key: Key; droppedColumns: string[] }[] = [];
    const add: { table: DocumentTable; key: Key }[] = [];
    const renamed: { table: DocumentTable; before: Key; after: Key }[] = [];
    const recreatedColumns = new Set<string>();
    const columnUuid = (table: DocumentTable, name: string) =>
      table.columns.find((c) => c.name === name)?.uuid ?? name;
    for (const pair of this.tablePairs) {
      const oldKeys = tableKeys(pair.before);
      const newKeys = tableKeys(pair.after);
      const droppedColumns = new Set(
        pair.before.columns
          .filter((c) => !pair.after.columns.some((n) => n.uuid === c.uuid))
          .map((c) => c.name),
      );
      // Flag keys are matched by what they are (kind and column uuid), index records by uuid.
      const identity = (table: DocumentTable, key: Key) =>
        key.uuid.startsWith('flag:')
          ? `${key.uuid.split(':')[1]}:${key.columns.map((n) => columnUuid(table, n)).join(',')}`
          : key.uuid;
      const newByIdentity = new Map(newKeys.map((key) => [identity(pair.after, key), key]));
      const oldIdentities = new Set(oldKeys.map((key) => identity(pair.before, key)));
      for (const key of oldKeys) {
        const next = newByIdentity.get(identity(pair.before, key));
        const sameColumns =
          next !== undefined &&
          keyShape({ ...key, columns: key.columns.map((n) => columnUuid(pair.before, n)) }) ===
            keyShape({ ...next, columns: next.columns.map((n) => columnUuid(pair.after, n)) });
        if (next !== undefined && sameColumns) {
          if (next.name !== key.name && key.type !== 'primary')
            renamed.push({ table: pair.after, before: key, after: next });
          continue;
        }
        // A key on a column that is dropped goes with the column, except where the server keeps the rest.
        if (key.columns.every((name) => droppedColumns.has(name)) && next === undefined) continue;
        drop.push({
          table: pair.before,
          key,
          droppedColumns: key.columns.filter((name) => droppedColumns.has(name)),
        });
        for (const name of key.columns) recreatedColumns.add(columnUuid(pair.before, name));
        if (next !== undefined) add.push({ table: pair.after, key: next });
      }
      for (const key of newKeys)
        if (!oldIdentities.has(identity(pair.after, key))) add.push({ table: pair.after, key });
    }
    return { drop, add, renamed, recreatedColumns };
  }

  private dropKey(table: DocumentTable, key: Key): string {
    const { dialect } = this;
    const name = dialect.table(table.name);
    if (dialect.driver === 'mysql')
      return key.type === 'primary'
        ? `ALTER TABLE ${name} DROP PRIMARY KEY`
        : `ALTER TABLE ${name} DROP INDEX ${dialect.ident(key.name)}`;
    if (dialect.driver === 'pgsql') {
      if (key.type === 'primary' || key.is_constraint === true)
        return `ALTER TABLE ${name} DROP CONSTRAINT ${dialect.ident(key.name)}`;
      return `DROP INDEX ${this.indexName(table.name, key.name)}`;
    }
    if (key.type === 'index') return `DROP INDEX ${dialect.ident(key.name)} ON ${name}`;
    return `ALTER TABLE ${name} DROP CONSTRAINT ${dialect.ident(key.name)}`;
  }

  private addKey(table: DocumentTable, key: Key): string {
    const { dialect } = this;
    const separate =
      (key.type === 'index' && dialect.driver !== 'mysql') ||
      (key.type === 'unique' && dialect.driver === 'pgsql');
    if (separate) return addUniqueOrIndex(dialect, table, key);
    return `ALTER TABLE ${dialect.table(table.name)} ADD ${keyClause(dialect, table, key)}`;
  }

  /** A PostgreSQL index lives in its table's schema. */
  private indexName(table: string, index: string): string {
    const schema = splitTableName(table)[0];
    return schema === null
      ? this.dialect.ident(index)
      : `${this.dialect.ident(schema)}.${this.dialect.ident(index)}`;
  }

  // --- foreign keys --------------------------------------------------------------------------------------

  /** Foreign keys to drop and to add: gone, new, changed, or touching a column re-typed or re-keyed. */
  private foreignKeyChanges(recreatedColumns: Set<string>) {
    const oldKeys = withImplicitNames(this.before, foreignKeys(this.before));
    const newKeys = withImplicitNames(this.after, foreignKeys(this.after));
    const tableUuid = (document: DiagramDocument, name: string) =>
      document.tables.find((t) => t.name === name);
    const resolve = (document: DiagramDocument, key: ForeignKey) => {
      const source = tableUuid(document, key.table);
      const target = tableUuid(document, key.refTable);
      const uuids = (table: DocumentTable | undefined, names: string[]) =>
        names.map((name) => table?.columns.find((c) => c.name === name)?.uuid ?? `?${name}`);
      return {
        columns: uuids(source, key.columns),
        refColumns: uuids(target, key.refColumns),
        link: JSON.stringify([
          source?.uuid,
          uuids(source, key.columns),
          target?.uuid,
          uuids(target, key.refColumns),
        ]),
        shape: JSON.stringify([
          source?.uuid,
          uuids(source, key.columns),
          target?.uuid,
          uuids(target, key.refColumns),
          key.name,
          key.onDelete,
          key.onUpdate,
        ]),
      };
    };
    const newByKey = new Map(newKeys.map((key) => [key.key, key]));
    const drop: ForeignKey[] = [];
    const add: ForeignKey[] = [];
    /** Keys new or changed (not just re-added after a type change): existing rows may break them. */
    const fresh = new Set<ForeignKey>();
    /** Keys dropped and added back (changed, or over columns or keys that change): as they were, as they will be. */
    const remade: { before: ForeignKey; after: ForeignKey }[] = [];
    const kept = new Set<string>();
    for (const key of oldKeys) {
      const next = newByKey.get(key.key);
      const old = resolve(this.before, key);
      const touched = [...old.columns, ...old.refColumns].some(
        (uuid) => this.typeChanged.has(uuid) || recreatedColumns.has(uuid),
      );
      if (next !== undefined && !touched && resolve(this.after, next).shape === old.shape) {
        kept.add(key.key);
        continue;
      }
      drop.push(key);
      if (next !== undefined) {
        add.push(next);
        remade.push({ before: key, after: next });
        if (resolve(this.after, next).link !== old.link) fresh.add(next);
      }
      kept.add(key.key);
    }
    for (const key of newKeys)
      if (!kept.has(key.key) && !add.includes(key)) {
        add.push(key);
        fresh.add(key);
      }
    return { drop, add, fresh, remade };
  }

  /**
   * MySQL (no rollback): each foreign key dropped only to be added back waits for the changes under it
   * (its columns altered, numbered or not, the keys over its columns dropped and made, its tables
   * converted) and comes back right after the last of them, so a statement that fails later leaves it in
   * place. Keys over a table or column the migration creates come back with the new ones, at the end.
   */
  private planReadds(
    fks: { add: ForeignKey[]; fresh: Set<ForeignKey>; remade: { before: ForeignKey; after: ForeignKey }[] },
    keys: { drop: { table: DocumentTable; key: Key }[]; add: { table: DocumentTable; key: Key }[] },
  ): void {
    const pairOf = (name: string) => this.tablePairs.find((pair) => pair.after.name === name);
    // Tables whose character set is converted: a key over them waits for the conversion.
    const converted = new Set(this.charsetChanges().map((pair) => pair.after.uuid));
    const uuidsOf = (table: DocumentTable, names: string[]) =>
      names.map((name) => table.columns.find((column) => column.name === name)?.uuid);
    for (const { after: key } of fks.remade) {
      const child = pairOf(key.table);
      const parent = pairOf(key.refTable);
      if (child === undefined || parent === undefined) continue;
      const sides = [
        { pair: child, uuids: uuidsOf(child.after, key.columns) },
        { pair: parent, uuids: uuidsOf(parent.after, key.refColumns) },
      ];
      const existing = sides.every(({ uuids }) =>
        uuids.every((uuid) => this.columnPairs.some((pair) => pair.after.uuid === uuid)),
      );
      if (!existing) continue;
      const needs = new Set<string>();
      const touches = (table: DocumentTable, names: string[]) =>
        sides.some(
          ({ pair, uuids }) =>
            pair.after.uuid === table.uuid && uuidsOf(table, names).some((uuid) => uuids.includes(uuid)),
        );
      for (const { pair, uuids } of sides) {
        if (converted.has(pair.after.uuid)) needs.add(`charset:${pair.after.uuid}`);
        for (const uuid of uuids) {
          needs.add(`column:${uuid}`);
          const column = this.columnPairs.find((entry) => entry.after.uuid === uuid);
          if (column?.before.is_auto_increment && !column.after.is_auto_increment)
            needs.add(`unnumber:${uuid}`);
          if (column?.after.is_auto_increment && !column.before.is_auto_increment)
            needs.add(`number:${uuid}`);
        }
      }
      for (const [n, { table, key: index }] of keys.drop.entries())
        if (touches(table, index.columns)) needs.add(`drop:${n}`);
      for (const [n, { table, key: index }] of keys.add.entries())
        if (touches(table, index.columns)) needs.add(`add:${n}`);
      this.waiting.push({ key, fresh: fks.fresh.has(key), needs: [...needs] });
    }
  }

  /** Records a change written, and adds back the foreign keys that waited for nothing else. */
  private mark(change: string): void {
    this.done.add(change);
    this.readdReady();
  }

  private readdReady(): void {
    for (const { key, fresh, needs } of this.waiting) {
      if (this.readded.has(key) || !needs.every((need) => this.done.has(need))) continue;
      this.readded.add(key);
      this.foreignKeyWindow.last = this.addForeignKey(key, fresh);
    }
  }

  /**
   * Drops the foreign keys that go or change. MySQL: by the table names the renames (run before) gave,
   * and the index MySQL made under the key's name goes too when the key does not come back and no index
   * begins with its columns.
   */
  private dropForeignKeys(fks: { drop: ForeignKey[]; add: ForeignKey[] }): void {
    const mysql = this.dialect.driver === 'mysql';
    for (const key of fks.drop) {
      const table = mysql ? this.afterTableName(key.table) : key.table;
      const at = this.emit(this.dropForeignKey({ ...key, table }));
      this.foreignKeyWindow.first ??= at;
      const before = this.before.tables.find((entry) => entry.name === key.table);
      const readded = fks.add.some((next) => next.name === key.name && next.table === table);
      if (mysql && before !== undefined && !readded && !hasLeadingIndex(before, key.columns))
        this.emit(
          `ALTER TABLE ${this.dialect.table(table)} DROP INDEX ${this.dialect.ident(key.name ?? '')}`,
        );
    }
  }

  /** A table of the first version as the second names it (a table that goes keeps its name). */
  private afterTable(table: DocumentTable): DocumentTable {
    return this.tablePairs.find((pair) => pair.before.uuid === table.uuid)?.after ?? table;
  }

  private afterTableName(name: string): string {
    const table = this.before.tables.find((entry) => entry.name === name);
    return table === undefined ? name : this.afterTable(table).name;
  }

  /**
   * MySQL: the statements that put back the foreign keys the migration drops and adds again, as they
   * were, when the script stops in between (MySQL cannot roll back). Each is guarded by MariaDB's
   * IF [NOT] EXISTS, so the recovery can run wherever the script stopped after the renames: the keys as
   * they are then are dropped, the unique keys and indexes re-made under them are put back, their
   * columns get back the types they had, and the keys are added as they were. Primary keys are left as
   * they are (a foreign key needs only an index, which the server makes).
   */
  private recoveryFor(
    remade: { before: ForeignKey; after: ForeignKey }[],
    droppedKeys: { table: DocumentTable; key: Key }[],
  ): void {
    const { dialect } = this;
    const statements = new Set<string>();
    const alter = (table: string) => `ALTER TABLE IF EXISTS ${dialect.table(table)}`;
    /** The first version's column as the second names it (after the renames), or null when it goes. */
    const column = (table: DocumentTable, name: string): Column | null => {
      const old = table.columns.find((entry) => entry.name === name);
      const next = this.afterTable(table).columns.find((entry) => entry.uuid === old?.uuid);
      return old === undefined || next === undefined ? null : { ...old, name: next.name };
    };
    const renamed = (table: DocumentTable) => ({
      ...this.afterTable(table),
      columns: table.columns.map((entry) => column(table, entry.name) ?? entry),
    });
    const tableOf = (name: string) => this.before.tables.find((entry) => entry.name === name);
    const restorable = remade.filter(({ before }) => {
      const child = tableOf(before.table);
      const parent = tableOf(before.refTable);
      return (
        child !== undefined &&
        parent !== undefined &&
        this.removedTables.every((table) => table.uuid !== child.uuid && table.uuid !== parent.uuid) &&
        before.columns.every((name) => column(child, name) !== null) &&
        before.refColumns.every((name) => column(parent, name) !== null)
      );
    });
    for (const { before, after } of restorable) {
      statements.add(`${alter(after.table)} DROP FOREIGN KEY IF EXISTS ${dialect.ident(after.name ?? '')}`);
      const child = this.afterTableName(before.table);
      if (child !== after.table || before.name !== after.name)
        statements.add(`${alter(child)} DROP FOREIGN KEY IF EXISTS ${dialect.ident(before.name ?? '')}`);
    }
    const sides = restorable.flatMap(({ before }) => [
      { table: tableOf(before.table) as DocumentTable, columns: before.columns },
      { table: tableOf(before.refTable) as DocumentTable, columns: before.refColumns },
    ]);
    for (const { table, key } of droppedKeys) {
      if (key.type === 'primary') continue;
      const under = sides.some(
        (side) => side.table.uuid === table.uuid && key.columns.some((name) => side.columns.includes(name)),
      );
      const names = key.columns.map((name) => column(table, name));
      if (!under || names.some((entry) => entry === null)) continue;
      const next = renamed(table);
      statements.add(`${alter(next.name)} DROP INDEX IF EXISTS ${dialect.ident(key.name)}`);
      statements.add(
        `${alter(next.name)} ADD ${keyClause(dialect, next, {
          ...key,
          columns: names.map((entry) => (entry as Column).name),
        }).replace(/^(UNIQUE KEY|KEY|FULLTEXT KEY|SPATIAL KEY) /, '$1 IF NOT EXISTS ')}`,
      );
    }
    for (const { table, columns } of sides)
      for (const name of columns) {
        const old = column(table, name);
        if (old === null || !this.typeChanged.has(old.uuid)) continue;
        const next = this.afterTable(table).name;
        statements.add(`${alter(next)} MODIFY COLUMN IF EXISTS ${dialect.column(next, old)}`);
      }
    for (const { before } of restorable) {
      const child = tableOf(before.table) as DocumentTable;
      const parent = tableOf(before.refTable) as DocumentTable;
      const key: ForeignKey = {
        ...before,
        table: this.afterTable(child).name,
        columns: before.columns.map((name) => (column(child, name) as Column).name),
        refTable: this.afterTable(parent).name,
        refColumns: before.refColumns.map((name) => (column(parent, name) as Column).name),
      };
      statements.add(
        `${alter(key.table)} ADD ${foreignKeyClause(dialect, key).replace(' FOREIGN KEY (', ' FOREIGN KEY IF NOT EXISTS (')}`,
      );
    }
    this.recovery.push(...statements);
  }

  /**
   * A foreign key over a table that held rows before may find rows that break it: the warning names the
   * query that finds them. PostgreSQL adds it NOT VALID and validates it after, so the check of the rows
   * is a step of its own (and a lighter lock).
   */
  private addForeignKey(key: ForeignKey, fresh: boolean): number {
    const { dialect } = this;
    const clause = `ALTER TABLE ${dialect.table(key.table)} ADD ${foreignKeyClause(dialect, key)}`;
    const existing = this.tablePairs.some((pair) => pair.after.name === key.table);
    if (!fresh || !existing) return this.emit(clause);
    let at: number;
    if (dialect.driver === 'pgsql') {
      this.emit(`${clause} NOT VALID`);
      at = this.emit(
        `ALTER TABLE ${dialect.table(key.table)} VALIDATE CONSTRAINT ${dialect.ident(key.name ?? '')}`,
      );
    } else at = this.emit(clause);
    const child = (name: string) => `c.${dialect.ident(name)}`;
    const parent = (name: string) => `p.${dialect.ident(name)}`;
    const orphans = `SELECT count(*) FROM ${dialect.table(key.table)} c WHERE ${key.columns
      .map((name) => `${child(name)} IS NOT NULL`)
      .join(' AND ')} AND NOT EXISTS (SELECT 1 FROM ${dialect.table(key.refTable)} p WHERE ${key.columns
      .map((name, n) => `${parent(key.refColumns[n] ?? name)} = ${child(name)}`)
      .join(' AND ')})`;
    this.warn(
      'adds_foreign_key',
      `${key.table} (${key.columns.join(', ')}) → ${key.refTable} (${key.refColumns.join(', ')}): fails if a row of ${key.table} points to no row of ${key.refTable}; check first: ${orphans}`,
      at,
    );
    return at;
  }

  /** The query that counts the rows a check stops on. */
  private findQuery(pair: ColumnPair, check: Check): string {
    const { dialect } = this;
    return `SELECT count(*) FROM ${dialect.table(pair.table.before.name)} WHERE ${violation(
      dialect,
      pair.table.after.name,
      pair.before,
      pair.after,
      check,
    )}`;
  }

  private dropForeignKey(key: ForeignKey): string {
    const { dialect } = this;
    const name = dialect.ident(key.name ?? '');
    if (dialect.driver === 'mysql') return `ALTER TABLE ${dialect.table(key.table)} DROP FOREIGN KEY ${name}`;
    return `ALTER TABLE ${dialect.table(key.table)} DROP CONSTRAINT ${name}`;
  }

  // --- renames -------------------------------------------------------------------------------------------

  private renames(keys: { table: DocumentTable; before: Key; after: Key }[]): void {
    const { dialect } = this;
    for (const { before, after } of this.tablePairs) {
      if (before.name === after.name) continue;
      const [oldSchema, oldBare] = splitTableName(before.name);
      const [newSchema, newBare] = splitTableName(after.name);
      if (dialect.driver === 'mysql')
        this.emit(`RENAME TABLE ${dialect.table(before.name)} TO ${dialect.table(after.name)}`);
      else if (dialect.driver === 'pgsql') {
        let current = before.name;
        if (oldBare !== newBare) {
          this.emit(`ALTER TABLE ${dialect.table(before.name)} RENAME TO ${dialect.ident(newBare)}`);
          current = oldSchema === null ? newBare : `${oldSchema}.${newBare}`;
        }
        if (oldSchema !== newSchema)
          this.emit(
            `ALTER TABLE ${dialect.table(current)} SET SCHEMA ${dialect.ident(newSchema ?? 'public')}`,
          );
      } else {
        if (oldBare !== newBare)
          this.emit(
            `EXEC sp_rename ${dialect.string(`${oldSchema ?? 'dbo'}.${oldBare}`)}, ${dialect.string(newBare)}`,
          );
        if (oldSchema !== newSchema)
          this.emit(
            `ALTER SCHEMA ${dialect.ident(newSchema ?? 'dbo')} TRANSFER ${dialect.table(`${oldSchema ?? 'dbo'}.${newBare}`)}`,
          );
      }
    }
    for (const { table, before, after } of this.columnPairs) {
      if (before.name === after.name) continue;
      if (dialect.driver === 'sqlsrv') {
        const [schema, bare] = splitTableName(table.after.name);
        this.emit(
          `EXEC sp_rename ${dialect.string(`${schema ?? 'dbo'}.${bare}.${before.name}`)}, ${dialect.string(after.name)}, N'COLUMN'`,
        );
      } else
        this.emit(
          `ALTER TABLE ${dialect.table(table.after.name)} RENAME COLUMN ${dialect.ident(before.name)} TO ${dialect.ident(after.name)}`,
        );
    }
    for (const { table, before, after } of keys) {
      if (dialect.driver === 'mysql')
        this.emit(
          `ALTER TABLE ${dialect.table(table.name)} RENAME INDEX ${dialect.ident(before.name)} TO ${dialect.ident(after.name)}`,
        );
      else if (dialect.driver === 'pgsql')
        this.emit(
          `ALTER INDEX ${this.indexName(table.name, before.name)} RENAME TO ${dialect.ident(after.name)}`,
        );
      else {
        const [schema, bare] = splitTableName(table.name);
        this.emit(
          `EXEC sp_rename ${dialect.string(`${schema ?? 'dbo'}.${bare}.${before.name}`)}, ${dialect.string(after.name)}, N'INDEX'`,
        );
      }
    }
  }

  // --- tables and columns --------------------------------------------------------------------------------

  /** Without foreign keys: they are added with the others. */
  private createTable(table: DocumentTable): void {
    for (const statement of createTable(this.dialect, table)) this.emit(statement);
  }

  private columns(keys: {
    add: { table: DocumentTable; key: Key }[];
    drop: { table: DocumentTable; key: Key }[];
  }): void {
    const { dialect } = this;
    for (const pair of this.tablePairs) {
      const oldUuids = new Set(pair.before.columns.map((c) => c.uuid));
      for (const column of pair.after.columns) {
        if (oldUuids.has(column.uuid)) continue;
        const table = dialect.table(pair.after.name);
        let at: number;
        if (dialect.driver === 'mysql' && column.is_auto_increment) {
          // MySQL numbers the rows when the column, its key and AUTO_INCREMENT come in one statement;
          // added alone, every row would hold 0 and the key would be refused.
          at = this.numberedColumn(pair.after, column, keys);
        } else {
          const definition =
            dialect.driver === 'mysql'
              ? dialect.column(pair.after.name, { ...column, is_auto_increment: false })
              : dialect.column(pair.after.name, column);
          at = this.emit(
            `ALTER TABLE ${table} ADD ${dialect.driver === 'sqlsrv' ? '' : 'COLUMN '}${definition}`,
          );
        }
        if (
          !column.is_nullable &&
          column.default === null &&
          !column.is_auto_increment &&
          !pgNumberedByDefault(column)
        )
          this.warn(
            'adds_not_null_without_default',
            dialect.driver === 'mysql'
              ? `${pair.after.name}.${column.name}: a NOT NULL column without a default gives every existing row the type's zero value ('', 0 or the zero date)`
              : `${pair.after.name}.${column.name}: a NOT NULL column without a default fails on a table with rows`,
            at,
          );
      }
    }
    for (const pair of this.columnPairs) {
      this.alterColumn(pair);
      this.mark(`column:${pair.after.uuid}`);
    }
  }

  /** MySQL: tables whose default character set or collation changed. */
  private charsetChanges(): TablePair[] {
    if (this.dialect.driver !== 'mysql') return [];
    return this.tablePairs.filter(
      ({ before, after }) => before.charset !== after.charset || before.collation !== after.collation,
    );
  }

  /**
   * MySQL: a table's new default character set or collation, with its text columns converted to it
   * (`CONVERT TO`: the columns without a collation of their own follow the table's, as in the export).
   * CONVERT also re-collates the columns that have their own, so those are given it back at once.
   */
  private tableCharsets(): void {
    const { dialect } = this;
    for (const { before, after } of this.charsetChanges()) {
      const charset = after.charset ?? charsetOf(after.collation) ?? 'DEFAULT';
      const collate = after.collation === undefined ? '' : ` COLLATE ${after.collation}`;
      const name = dialect.table(after.name);
      const at = this.emit(`ALTER TABLE ${name} CONVERT TO CHARACTER SET ${charset}${collate}`);
      this.warn(
        'changes_type',
        `${after.name}: character set ${before.charset ?? '(default)'}/${before.collation ?? '(default)'} → ${after.charset ?? '(default)'}/${after.collation ?? '(default)'}: every text column without a collation of its own is converted (a value the new set cannot hold stops the statement), compared and sorted by the new collation`,
        at,
      );
      const oldUuids = new Set(before.columns.map((column) => column.uuid));
      for (const column of after.columns)
        if (oldUuids.has(column.uuid) && column.collation !== undefined) {
          const old = before.columns.find((entry) => entry.uuid === column.uuid);
          this.emit(
            `ALTER TABLE ${name} MODIFY COLUMN ${dialect.column(after.name, {
              ...column,
              is_auto_increment: column.is_auto_increment && old?.is_auto_increment === true,
            })}`,
          );
        }
      this.mark(`charset:${after.uuid}`);
    }
  }

  /** MySQL: a new AUTO_INCREMENT column with the key it needs (replacing the primary key where it goes). */
  private numberedColumn(
    table: DocumentTable,
    column: Column,
    keys: { add: { table: DocumentTable; key: Key }[]; drop: { table: DocumentTable; key: Key }[] },
  ): number {
    const { dialect } = this;
    const own = keys.add.filter(
      (entry) => entry.table.uuid === table.uuid && entry.key.columns[0] === column.name,
    );
    const entry = own.find((candidate) => candidate.key.type === 'primary') ?? own[0];
    const parts: string[] = [];
    if (
      entry?.key.type === 'primary' &&
      keys.drop.some((drop) => drop.table.uuid === table.uuid && drop.key.type === 'primary')
    )
      parts.push('DROP PRIMARY KEY');
    parts.push(`ADD COLUMN ${dialect.column(table.name, column)}`);
    if (entry !== undefined) {
      parts.push(`ADD ${keyClause(dialect, table, entry.key)}`);
      this.writtenKeys.add(entry.key);
    }
    const at = this.emit(`ALTER TABLE ${dialect.table(table.name)} ${parts.join(', ')}`);
    if (entry !== undefined) this.warnKey(table, entry.key, at);
    return at;
  }

  private alterColumn(pair: ColumnPair): void {
    const { table, before, after } = pair;
    const { dialect } = this;
    const name = dialect.table(table.after.name);
    const label = `${table.after.name}.${after.name}`;
    const typeChange = this.typeChanged.has(after.uuid);
    const nullChange = before.is_nullable !== after.is_nullable;
    const defaultChange = before.default !== after.default;
    const loss = typeChange ? this.lossOf(pair) : null;
    const from = dialect.type(table.before.name, before);
    const to = dialect.type(table.after.name, after);
    // Guarded when a check runs before it; destructive when what it loses cannot be checked for.
    const typeSafety: StatementSafety =
      loss === null ? 'safe' : loss.check === null ? 'destructive' : 'guarded';
    const warnType = (at: number) => {
      if (loss !== null)
        this.warn(
          'narrows_type',
          `${label}: ${from} → ${to}: ${loss.what}${
            loss.check === null
              ? ''
              : `; a check before it stops the migration if any row would (${this.findQuery(pair, loss.check)})`
          }`,
          at,
        );
      else if (dialect.driver === 'pgsql' && zoned(before) !== zoned(after))
        this.warn(
          'changes_type',
          `${label}: ${from} → ${to}: every value is converted through the session's TimeZone (${
            zoned(after)
              ? 'each wall-clock time is read as a time there'
              : 'each instant becomes its wall-clock time there, and the offset is lost'
          }); run the migration with TimeZone set to the zone the values mean`,
          at,
        );
      else if (!sameFamily(before, after, dialect.driver))
        this.warn(
          'changes_type',
          `${label}: ${from} → ${to} converts every value; a value the server cannot convert stops the migration`,
          at,
        );
    };
    const warnNotNull = (at: number) => {
      const nulls = `SELECT count(*) FROM ${dialect.table(table.before.name)} WHERE ${dialect.ident(before.name)} IS NULL`;
      if (after.default === null)
        this.warn(
          'adds_not_null_without_default',
          `${label}: fails if a row holds NULL, and no default fills it; check first: ${nulls}`,
          at,
        );
      else
        this.warn(
          'adds_not_null',
          `${label}: fails if a row holds NULL (the default ${after.default} fills new rows only); check first: ${nulls}`,
          at,
        );
    };
    const collationChange = before.collation !== after.collation;
    const warnCollation = (at: number) => {
      if (collationChange)
        this.warn(
          'changes_type',
          `${label}: collation ${before.collation ?? '(default)'} → ${after.collation ?? '(default)'}: values are compared and sorted by the new collation, and a unique key over values it holds equal fails`,
          at,
        );
    };
    if (dialect.driver === 'mysql') {
      const commentChange = before.comment !== after.comment;
      if (!typeChange && !nullChange && !defaultChange && !commentChange && !collationChange) return;
      // Strict mode (set at the top) and the checks before make the server refuse what would not fit.
      const at = this.emit(
        `ALTER TABLE ${name} MODIFY COLUMN ${dialect.column(table.after.name, { ...after, is_auto_increment: after.is_auto_increment && before.is_auto_increment })}`,
        typeSafety === 'safe' && nullChange && !after.is_nullable ? 'guarded' : typeSafety,
      );
      if (typeChange) warnType(at);
      warnCollation(at);
      if (nullChange && !after.is_nullable) warnNotNull(at);
      return;
    }
    const column = dialect.ident(after.name);
    if (dialect.driver === 'pgsql') {
      const enumType = after.driver_data_type_name === 'enum';
      if (typeChange) {
        if (before.default !== null) this.emit(`ALTER TABLE ${name} ALTER COLUMN ${column} DROP DEFAULT`);
        const type = dialect.type(table.after.name, {
          ...after,
          driver_data_type_name: baseOfSerial(after.driver_data_type_name),
        });
        // No USING where the server has an assignment cast: an explicit cast would cut a too-long
        // string where the assignment refuses it.
        const via =
          enumType || before.driver_data_type_name === 'enum'
            ? ` USING ${column}::text::${type}`
            : pgAssignable(before, after)
              ? ''
              : ` USING ${column}::${type}`;
        const at = this.emit(
          `ALTER TABLE ${name} ALTER COLUMN ${column} TYPE ${type}${collationChange || after.collation !== undefined ? pgCollate(after) : ''}${via}`,
          typeSafety,
        );
        warnType(at);
        warnCollation(at);
        if (after.default !== null && !SERIALS.has(after.driver_data_type_name))
          this.emit(`ALTER TABLE ${name} ALTER COLUMN ${column} SET DEFAULT ${after.default}`);
      } else if (collationChange)
        warnCollation(
          this.emit(
            `ALTER TABLE ${name} ALTER COLUMN ${column} TYPE ${dialect.type(table.after.name, after)}${pgCollate(after)}`,
          ),
        );
      if (!typeChange && defaultChange)
        this.emit(
          after.default === null
            ? `ALTER TABLE ${name} ALTER COLUMN ${column} DROP DEFAULT`
            : `ALTER TABLE ${name} ALTER COLUMN ${column} SET DEFAULT ${after.default}`,
        );
      if (nullChange) {
        const at = this.emit(
          `ALTER TABLE ${name} ALTER COLUMN ${column} ${after.is_nullable ? 'DROP' : 'SET'} NOT NULL`,
        );
        if (!after.is_nullable) warnNotNull(at);
      }
      const identityBefore = before.is_auto_increment && !pgNumberedByDefault(before);
      const identityAfter = after.is_auto_increment && !pgNumberedByDefault(after);
      if (identityAfter && !identityBefore) {
        this.emit(`ALTER TABLE ${name} ALTER COLUMN ${column} ADD GENERATED BY DEFAULT AS IDENTITY`);
        // The new sequence starts at 1: it must start after the numbers the rows already hold, or the
        // next insert collides with them.
        this.emit(
          `SELECT setval(pg_get_serial_sequence(${dialect.string(name)}, ${dialect.string(after.name)}), COALESCE(max(${column}), 0) + 1, false) FROM ${name}`,
        );
      }
      if (identityBefore && !identityAfter)
        this.emit(`ALTER TABLE ${name} ALTER COLUMN ${column} DROP IDENTITY IF EXISTS`);
      return;
    }
    // SQL Server: the default is a named constraint; the type and nullability one ALTER COLUMN.
    const constraint = dialect.ident(defaultConstraintName(table.before.name, before.name));
    if ((defaultChange || typeChange) && before.default !== null)
      this.emit(`ALTER TABLE ${name} DROP CONSTRAINT ${constraint}`);
    if (typeChange || nullChange) {
      const at = this.emit(
        `ALTER TABLE ${name} ALTER COLUMN ${column} ${dialect.type(table.after.name, after)} ${after.is_nullable ? 'NULL' : 'NOT NULL'}`,
        typeSafety,
      );
      if (typeChange) warnType(at);
      if (nullChange && !after.is_nullable) warnNotNull(at);
    }
    if ((defaultChange || typeChange) && after.default !== null)
      this.emit(
        `ALTER TABLE ${name} ADD CONSTRAINT ${dialect.ident(defaultConstraintName(table.after.name, after.name))} DEFAULT ${after.default} FOR ${column}`,
      );
    if (before.is_auto_increment !== after.is_auto_increment)
      this.warn(
        'cannot_alter_identity',
        `${label}: SQL Server cannot add or remove IDENTITY on an existing column; rebuild the table to change it`,
        Math.max(0, this.statements.length - 1),
      );
  }

  /** Dropped columns (except those of `folded` tables, dropped with their new primary key) and tables. */
  private drops(folded: Set<string>): void {
    const { dialect } = this;
    for (const pair of this.tablePairs) {
      if (folded.has(pair.after.uuid)) continue;
      const newUuids = new Set(pair.after.columns.map((c) => c.uuid));
      for (const column of pair.before.columns) {
        if (newUuids.has(column.uuid)) continue;
        if (dialect.driver === 'sqlsrv' && column.default !== null)
          this.emit(
            `ALTER TABLE ${dialect.table(pair.after.name)} DROP CONSTRAINT ${dialect.ident(defaultConstraintName(pair.before.name, column.name))}`,
          );
        const at = this.emit(
          `ALTER TABLE ${dialect.table(pair.after.name)} DROP COLUMN ${dialect.ident(column.name)}`,
          'destructive',
        );
        this.warn(
          'drops_column',
          `${pair.after.name}.${column.name}: the column and its data are deleted`,
          at,
        );
      }
    }
    for (const table of this.removedTables) {
      const at = this.emit(`DROP TABLE ${dialect.table(table.name)}`, 'destructive');
      this.warn('drops_table', `${table.name}: the table and its data are deleted`, at);
    }
  }

  private comments(): void {
    const { dialect } = this;
    for (const { before, after } of this.tablePairs) {
      if (before.comment !== after.comment) {
        if (dialect.driver === 'mysql')
          this.emit(
            `ALTER TABLE ${dialect.table(after.name)} COMMENT = ${dialect.string(after.comment ?? '')}`,
          );
        else if (dialect.driver === 'pgsql')
          this.emit(commentStatement(dialect, after.name, null, after.comment) as string);
        else this.sqlsrvComment(after.name, null, before.comment, after.comment);
      }
    }
    if (dialect.driver === 'mysql') return;
    for (const { table, before, after } of this.columnPairs)
      if (before.comment !== after.comment) {
        if (dialect.driver === 'pgsql')
          this.emit(commentStatement(dialect, table.after.name, after, after.comment) as string);
        else this.sqlsrvComment(table.after.name, after, before.comment, after.comment);
      }
  }

  /** SQL Server: a changed comment is dropped and added (sp_addextendedproperty refuses to overwrite). */
  private sqlsrvComment(
    table: string,
    column: Column | null,
    before: string | null,
    after: string | null,
  ): void {
    if (before !== null) this.emit(commentStatement(this.dialect, table, column, null) as string);
    if (after !== null) this.emit(commentStatement(this.dialect, table, column, after) as string);
  }

  // --- PostgreSQL enum types -----------------------------------------------------------------------------

  private enumTypes(document: DiagramDocument): Map<string, string[]> {
    const types = new Map<string, string[]>();
    if (document.driver !== 'pgsql') return types;
    for (const table of document.tables)
      for (const column of table.columns)
        if (column.driver_data_type_name === 'enum')
          types.set(pgEnumType(table.name, column), column.driver_data_type_params?.values ?? []);
    return types;
  }

  /** Enum types the new version needs: new names are created; a name whose values change is replaced. */
  private createEnumTypes(): void {
    const old = this.enumTypes(this.before);
    for (const [name, values] of this.enumTypes(this.after)) {
      const previous = old.get(name);
      if (previous !== undefined && JSON.stringify(previous) === JSON.stringify(values)) continue;
      if (previous !== undefined) this.emit(`ALTER TYPE ${name} RENAME TO ${retiredName(name)}`);
      this.emit(`CREATE TYPE ${name} AS ENUM (${values.map(this.dialect.string).join(', ')})`);
      // Every column of the type must move to the new one, changed or not.
      for (const pair of this.columnPairs)
        if (
          pair.after.driver_data_type_name === 'enum' &&
          pgEnumType(pair.table.after.name, pair.after) === name
        )
          this.typeChanged.add(pair.after.uuid);
    }
  }

  private dropEnumTypes(): void {
    const next = this.enumTypes(this.after);
    for (const [name, values] of this.enumTypes(this.before)) {
      const current = next.get(name);
      if (current === undefined) this.emit(`DROP TYPE IF EXISTS ${name}`);
      else if (JSON.stringify(current) !== JSON.stringify(values))
        this.emit(`DROP TYPE IF EXISTS ${retiredName(name)}`);
    }
  }
}

/** True when one of the table's keys begins with these columns, in this order. */
function hasLeadingIndex(table: DocumentTable, columns: string[]): boolean {
  return tableKeys(table).some((key) => columns.every((name, at) => key.columns[at] === name));
}

/** PostgreSQL: a date-time type that holds an instant (`timestamp with time zone`, `timestamptz`, `timetz`). */
function zoned(column: Column): boolean {
  return /with time zone|^timestamptz$|^timetz$/.test(column.driver_data_type_name);
}

/** True when both types are of one family of the driver's catalog (string to string, integer to integer). */
function sameFamily(before: Column, after: Column, driver: Driver): boolean {
  const a = lookupDataType(driver, before.driver_data_type_name)?.family;
  const b = lookupDataType(driver, after.driver_data_type_name)?.family;
  return a !== undefined && a === b;
}

/**
 * True when PostgreSQL converts the column without `USING`: an assignment cast exists (within a family,
 * to a string, among numbers, and among dates and times).
 */
function pgAssignable(before: Column, after: Column): boolean {
  const a = lookupDataType('pgsql', before.driver_data_type_name)?.family;
  const b = lookupDataType('pgsql', after.driver_data_type_name)?.family;
  if (a === undefined || b === undefined) return false;
  if (Boolean(before.driver_data_type_params?.array) !== Boolean(after.driver_data_type_params?.array))
    return false;
  const numbers = ['integer', 'decimal', 'float'];
  return (
    a === b ||
    b === 'string' ||
    (numbers.includes(a) && numbers.includes(b)) ||
    (a === 'datetime' && (b === 'date' || b === 'time')) ||
    (a === 'date' && b === 'datetime')
  );
}

const SERIALS = new Set(['serial', 'bigserial', 'smallserial']);

function baseOfSerial(name: string): string {
  return name === 'serial'
    ? 'integer'
    : name === 'bigserial'
      ? 'bigint'
      : name === 'smallserial'
        ? 'smallint'
        : name;
}

/** PostgreSQL: the COLLATE of a column's new type (`"default"`: the database's, when the model has none). */
function pgCollate(column: Column): string {
  if (!takesCollation('pgsql', column.driver_data_type_name)) return '';
  return ` COLLATE ${DIALECTS.pgsql.ident(column.collation ?? 'default')}`;
}

/** MySQL: the character set a collation belongs to (`utf8mb4_bin` → `utf8mb4`), or null when unknown. */
function charsetOf(collation: string | undefined): string | null {
  if (collation === undefined) return null;
  if (collation === 'binary') return 'binary';
  return /^([a-z0-9]+)_/i.exec(collation)?.[1]?.toLowerCase() ?? null;
}

/** The name an enum type is given while its replacement is made: the last part suffixed `__old`. */
function retiredName(name: string): string {
  if (name.endsWith('"')) return `${name.slice(0, -1)}__old"`;
  return `${name}__old`;
}

/**
 * Foreign keys with the names the server gave the unnamed ones when the CREATE script made them:
 * PostgreSQL `<table>_<columns>_fkey`, MySQL `<table>_ibfk_<n>` in the order the script declares them.
 */
export function withImplicitNames(document: DiagramDocument, keys: ForeignKey[]): ForeignKey[] {
  const counters = new Map<string, number>();
  const ordered = document.driver === 'mysql' ? mysqlDeclarationOrder(document) : keys;
  const names = new Map<string, string>();
  for (const key of ordered) {
    if (key.name !== null) continue;
    const bare = splitTableName(key.table)[1];
    if (document.driver === 'mysql') {
      const n = (counters.get(key.table) ?? 0) + 1;
      counters.set(key.table, n);
      names.set(key.key, `${bare}_ibfk_${n}`);
    } else names.set(key.key, `${bare}_${key.columns.join('_')}_fkey`.slice(0, 63));
  }
  return keys.map((key) => (names.has(key.key) ? { ...key, name: names.get(key.key) as string } : key));
}

/** The order the CREATE script declares a table's foreign keys: inline ones, then those added after. */
function mysqlDeclarationOrder(document: DiagramDocument): ForeignKey[] {
  const plan = declarationPlan(document);
  return [...plan.tables.flatMap((entry) => entry.inline), ...plan.deferred];
}

/**
 * The migration as a file: the script's note, then one `-- warning` line per warning (numbered as the
 * statements are, from 0), then the statements.
 */
export function migrationFile(migration: Migration): string {
  if (migration.warnings.length === 0) return migration.sql;
  const warnings = migration.warnings.map(
    (warning) =>
      `-- warning ${warning.code} (statement ${warning.statement}): ${warning.message.replace(/\s+/g, ' ')}\n`,
  );
  const at = migration.sql.indexOf('\n\n');
  return `${migration.sql.slice(0, at + 1)}${warnings.join('')}${migration.sql.slice(at + 1)}`;
}
