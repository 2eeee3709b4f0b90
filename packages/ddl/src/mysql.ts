// MySQL / MariaDB DDL reader: node-sql-parser (database `mysql`), one statement at a time after the
// splitter has honoured DELIMITER, opened `/*!NNNNN …*/` version comments and blanked other comments.
// Light pre-cleaning: character-set introducers (`_utf8mb4'…'`) are dropped before parsing, and legacy
// attributes real dumps still carry (`binary`, `NATIONAL`, `ZEROFILL`, `TYPE=MyISAM`) are dropped too.
import type { Parser } from 'node-sql-parser/build/mysql';
import { type Ast, arr, obj, raw, str } from './ast';
import { type DdlColumn, type DdlTable, SchemaBuilder } from './builder';
import { type Attempt, parseWithRepairs } from './recover';
import { LineMap, splitStatements } from './split';

const SHAPING =
  /^\s*(create\s+(?:temporary\s+)?table|alter\s+table|create\s+(?:unique\s+|fulltext\s+|spatial\s+)?index)\b/i;
/** mysqldump's `ALTER TABLE t DISABLE KEYS` / `ENABLE KEYS` around the data: no schema, and the parser rejects it. */
const KEYS_TOGGLE =
  /^\s*alter\s+table\s+(?:`(?:[^`]|``)*`|[\w$.]+)(?:\s*\.\s*(?:`(?:[^`]|``)*`|[\w$]+))?\s+(?:disable|enable)\s+keys\s*$/i;
const LITERALS = /('(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|`[^`]*`)/;
/**
 * Pre-cleaning outside literals, each keeping the statement's length so error offsets stay exact:
 * character-set introducers (`_utf8mb4'…'`) and `SRID n` column attributes are blanked; `NVARCHAR`/`NCHAR`
 * (which the parser lacks, and which MySQL itself reads as VARCHAR/CHAR) become ` VARCHAR`/` CHAR`, and
 * `DOUBLE PRECISION` becomes `DOUBLE`. A table's `PARTITION BY …` clause (not in the model) is blanked.
 */
const CLEANUPS: [RegExp, (match: string) => string][] = [
  [
    /(?<![\w'])_(?:utf8mb4|utf8mb3|utf8|latin1|binary|ascii|ucs2|utf16le|utf16|utf32|cp1251|gbk|big5|sjis)$/gi,
    blank,
  ],
  [/\bsrid\s+\d+/gi, blank],
  [/\bnvarchar\b/gi, () => ' VARCHAR'],
  [/\bnchar\b/gi, () => ' CHAR'],
  [/\bdouble\s+precision\b/gi, (match) => `DOUBLE${' '.repeat(match.length - 6)}`],
  // Legacy attributes MySQL and MariaDB still accept, which the parser does not: `varchar(64) binary`
  // (a binary collation: the column keeps its type), `NATIONAL VARCHAR` (VARCHAR in the national
  // character set), `ZEROFILL` (display padding) and the old `TYPE=MyISAM` table option (ENGINE=).
  [/(?<=\b(?:var)?char\s*\(\s*\d+\s*\)\s*)binary\b(?!\s*\()/gi, blank],
  [/(?<=\b(?:tiny|medium|long)?text\s+)binary\b(?!\s*\()/gi, blank],
  [/\bnational\s+(?=(?:var)?char\b|character\b)/gi, blank],
  [/\bzerofill\b/gi, blank],
  [/\btype\s*=\s*(?:myisam|innodb|heap|memory|isam|merge|bdb|archive|csv)\b/gi, blank],
];

function blank(match: string): string {
  return ' '.repeat(match.length);
}

function preClean(text: string): string {
  const parts = text.split(LITERALS);
  for (let i = 0; i < parts.length; i += 2) {
    let part = parts[i] as string;
    for (const [pattern, replace] of CLEANUPS) part = part.replace(pattern, replace);
    parts[i] = part;
  }
  const cleaned = parts.join('');
  return /^\s*create\s+(?:temporary\s+)?table\b/i.test(cleaned) ? withoutPartitioning(cleaned) : cleaned;
}

/** Blanks `PARTITION BY …` written after a CREATE TABLE's column list (depth 0, outside literals). */
function withoutPartitioning(text: string): string {
  let depth = 0;
  let closedList = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) closedList = true;
    } else if (
      closedList &&
      depth === 0 &&
      /^partition\s+by\b/i.test(text.slice(i, i + 20)) &&
      !/\w/.test(text[i - 1] ?? ' ')
    )
      return text.slice(0, i) + blank(text.slice(i));
  }
  return text;
}
const OPTIONS = { database: 'mysql' };

/** `it''s` / `it\'s` as written inside a quoted literal → `it's`. */
function unquote(text: string): string {
  return text
    .replace(/''/g, "'")
    .replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r', '0': '\0' })[c] ?? c);
}

function columnOf(ref: Ast): string | undefined {
  const column = raw(ref, 'column');
  if (typeof column === 'string') return column;
  // `column` is `{expr: {type: 'default', value}}` in some statements.
  const value = str(obj(obj(ref, 'column'), 'expr'), 'value');
  if (value !== undefined) return value;
  // A prefix index `name(10)` reads as a function call.
  if (str(ref, 'type') === 'function') return str(arr(obj(ref, 'name'), 'name')[0], 'value');
  return undefined;
}

const ACTIONS = new Set(['cascade', 'set null', 'set default', 'restrict']);

/** A table option's value as a name (`utf8mb4`), lower-cased as the server reports it. */
function optionName(option: Ast): string | undefined {
  const value = raw(option, 'value');
  const text = typeof value === 'string' ? value : str(value as Ast, 'value');
  return text?.replace(/^[`'"]|[`'"]$/g, '').toLowerCase();
}

/** `USING HASH` of a key (before or after its columns); BTREE, the default, is no method of its own. */
function usingOf(definition: Ast): 'hash' | undefined {
  const options = [obj(definition, 'index_type'), ...arr(definition, 'index_options')];
  return options.some(
    (option) => str(option, 'keyword') === 'using' && (str(option, 'type') ?? '').toLowerCase() === 'hash',
  )
    ? 'hash'
    : undefined;
}

/** One statement's parse tree, or where its syntax error is within the statement's text. Plain data. */
export type StatementParse =
  | { ok: true; tree: unknown }
  | { ok: false; offset: number | null; message: string };

/** Parses statement texts, answering in the same order; by default on this thread. */
export type MysqlStatementParser = (texts: string[]) => Promise<StatementParse[]> | StatementParse[];

let sharedParser: Parser | undefined;
/** node-sql-parser, required on first use: a process that only runs the conversion pool never loads it. */
function mysqlParser(): Parser {
  sharedParser ??= new (
    require('node-sql-parser/build/mysql') as typeof import('node-sql-parser/build/mysql')
  ).Parser();
  return sharedParser;
}

/**
 * Parses pre-cleaned statement texts with node-sql-parser. Pure and stateless, so a caller may hand slices
 * of the list to other threads (ConvertOptions.parseMysqlStatements) and keep the order of the answers.
 */
export function parseMysqlStatements(texts: string[]): StatementParse[] {
  const parser = mysqlParser();
  return texts.map((text) => {
    try {
      return { ok: true, tree: parser.astify(text, OPTIONS) };
    } catch (error) {
      const offset = (error as { location?: { start?: { offset?: number } } }).location?.start?.offset;
      return { ok: false, offset: offset ?? null, message: firstLine((error as Error).message) };
    }
  });
}

class MysqlReader {
  readonly builder = new SchemaBuilder('mysql');
  /** The script's database: the one `USE` names (else decided when the whole script is read). */
  private database: string | undefined;
  /** Whether a table was named without a database (then it is in the script's own). */
  private unqualified = false;

  /**
   * A table's name: bare in the script's database (as PostgreSQL's `public`), `db.table` in another one
   * (the export creates that database and writes `db`.`table`).
   */
  private tableName(node: Ast | undefined): string {
    const table = str(node, 'table') ?? '';
    const db = str(node, 'db');
    if (db === undefined || db === null || db === '') {
      this.unqualified = true;
      return table;
    }
    return db === this.database ? table : `${db}.${table}`;
  }

  /**
   * Without `USE`: a script that names every table with one and the same database (a dump qualifying
   * its names) is that database's own, so the prefix goes; any bare name or a second database keeps them.
   */
  private dropSolePrefix(): void {
    if (this.database !== undefined || this.unqualified) return;
    const databases = new Set([...this.builder.tables.keys()].map((name) => name.split('.')[0]));
    if (databases.size !== 1) return;
    const strip = (name: string) => name.slice(name.indexOf('.') + 1);
    const tables = [...this.builder.tables.values()];
    this.builder.tables.clear();
    for (const table of tables) {
      table.name = strip(table.name);
      this.builder.tables.set(table.name, table);
    }
    for (const fk of this.builder.foreignKeys) {
      if (fk.table.includes('.')) fk.table = strip(fk.table);
      if (fk.refTable.includes('.')) fk.refTable = strip(fk.refTable);
    }
  }

  async read(sql: string, parse: MysqlStatementParser): Promise<SchemaBuilder> {
    const lines = new LineMap(sql);
    const statements = splitStatements('mysql', sql).map((piece) => {
      const cleaned = preClean(piece.text);
      const lead = cleaned.length - cleaned.trimStart().length;
      return { offset: piece.offset + lead, text: cleaned.slice(lead), source: piece.text.slice(lead) };
    });
    const parsed = await parse(statements.map((statement) => statement.text));
    const parseHere = (candidate: string): Attempt<unknown> => {
      const [answer] = parseMysqlStatements([candidate]);
      return answer?.ok
        ? { ok: true, tree: answer.tree }
        : { ok: false, offset: answer?.offset ?? null, message: answer?.message ?? 'syntax error' };
    };
    statements.forEach(({ offset, text, source }, index) => {
      const here = lines.at(offset);
      this.builder.at(here.line, here.column, source);
      const result = parsed[index] as StatementParse;
      let tree: unknown;
      if (result.ok) tree = result.tree;
      else {
        if (KEYS_TOGGLE.test(text)) {
          this.builder.skipped++;
          return;
        }
        const first: Attempt<unknown> = { ok: false, offset: result.offset, message: result.message };
        const recovered = SHAPING.test(text)
          ? parseWithRepairs(text, parseHere, false, first)
          : ({ ok: false, offset: result.offset, message: result.message } as const);
        if (!recovered.ok) {
          const at = lines.at(offset + (recovered.offset ?? 0));
          this.builder.unreadable(at.line, at.column, recovered.message, source);
          return;
        }
        for (const repair of recovered.repairs)
          this.builder.warn(repair.code, repair.message, lines.at(offset + repair.offset));
        tree = recovered.tree;
      }
      for (const statement of Array.isArray(tree) ? tree : [tree])
        if (!this.statement(statement)) this.builder.skipped++;
    });
    this.dropSolePrefix();
    return this.builder;
  }

  private statement(node: unknown): boolean {
    const type = str(node, 'type');
    const keyword = str(node, 'keyword');
    if (type === 'create' && keyword === 'table' && node) {
      this.createTable(node as Ast);
      return true;
    }
    if (type === 'create' && keyword === 'index') {
      this.createIndex(node as Ast);
      return true;
    }
    if (type === 'alter') return this.alterTable(node as Ast);
    if (type === 'use') {
      const db = str(node, 'db');
      if (db !== undefined && db !== null) this.database = db;
    }
    return false;
  }

  private createTable(node: Ast): void {
    if (obj(node, 'query_expr') || raw(node, 'like')) {
      this.builder.warn(
        'not_imported',
        `CREATE TABLE ${this.tableName(arr(node, 'table')[0])} … AS/LIKE: columns not read`,
      );
    }
    const table = this.builder.addTable(this.tableName(arr(node, 'table')[0]));
    const constraints: Ast[] = [];
    for (const definition of arr(node, 'create_definitions')) {
      if (str(definition, 'resource') === 'column') this.addColumn(table, definition);
      else constraints.push(definition);
    }
    for (const definition of constraints) this.definition(table.name, definition);
    for (const option of arr(node, 'table_options')) {
      const keyword = (str(option, 'keyword') ?? '').toLowerCase();
      if (keyword === 'comment') {
        const value = str(option, 'value');
        if (value !== undefined) table.comment = unquote(value.replace(/^'|'$/g, ''));
      } else if (/^(default\s+)?(charset|character\s+set)$/.test(keyword)) {
        const value = optionName(option);
        if (value !== undefined) table.charset = value;
      } else if (/^(default\s+)?collate$/.test(keyword)) {
        const value = optionName(option);
        if (value !== undefined) table.collation = value;
      }
    }
  }

  private addColumn(table: DdlTable, definition: Ast): void {
    const name = columnOf(obj(definition, 'column') ?? {}) ?? '';
    const type = obj(definition, 'definition');
    const dataType = str(type, 'dataType') ?? '';
    const length = raw(type, 'length');
    const scale = raw(type, 'scale');
    const suffix = (raw(type, 'suffix') as unknown[] | null | undefined) ?? [];
    const valueNodes = arr(obj(type, 'expr'), 'value');
    const enumValues = /^(enum|set)$/i.test(dataType)
      ? valueNodes.map((value) => unquote(String(raw(value, 'value') ?? '')))
      : undefined;
    const params =
      typeof length === 'number' ? `(${length}${typeof scale === 'number' ? `,${scale}` : ''})` : '';
    const written = [`${dataType}${params}`, ...suffix.filter((s) => typeof s === 'string')].join(' ');
    const resolved = this.builder.resolveType(table.name, name, written, enumValues);
    const column: DdlColumn = {
      name,
      written,
      type: resolved.type,
      default: this.defaultText(obj(obj(definition, 'default_val'), 'value')),
      nullable: str(obj(definition, 'nullable'), 'type') !== 'not null',
      primary: false,
      unique: false,
      autoIncrement: raw(definition, 'auto_increment') !== undefined || /^serial$/i.test(dataType),
      unsigned: resolved.unsigned,
      comment: null,
    };
    if (obj(definition, 'generated'))
      this.builder.warn(
        'expression_dropped',
        `${table.name}.${name}: generated column; its expression is not kept`,
      );
    const comment = obj(obj(definition, 'comment'), 'value');
    if (comment) column.comment = unquote(String(raw(comment, 'value') ?? ''));
    const collation = str(obj(obj(definition, 'collate'), 'collate'), 'name');
    if (collation !== undefined) column.collation = collation.replace(/^[`'"]|[`'"]$/g, '').toLowerCase();
    const existing = table.columns.findIndex((c) => c.name === name);
    if (existing >= 0) {
      // ALTER … MODIFY replaces the definition; the column keeps its keys (phpMyAdmin adds the primary key
      // first and the AUTO_INCREMENT by MODIFY afterwards).
      const previous = table.columns[existing] as DdlColumn;
      column.primary = previous.primary;
      column.unique = previous.unique;
      if (previous.primary) column.nullable = false;
      table.columns[existing] = column;
    } else table.columns.push(column);
    const primary = raw(definition, 'primary_key');
    if (typeof primary === 'string')
      this.builder.addIndex(table.name, { name: 'PRIMARY', type: 'primary', columns: [name] });
    if (raw(definition, 'unique') !== undefined && raw(definition, 'unique') !== null)
      this.builder.addIndex(table.name, { name, type: 'unique', columns: [name] });
    // A column-level REFERENCES; the parser also files `ON UPDATE CURRENT_TIMESTAMP` here, without a table.
    const reference = obj(definition, 'reference_definition');
    if (reference && arr(reference, 'table').length > 0) this.foreignKey(table.name, null, [name], reference);
    const check = obj(definition, 'check');
    if (check) this.check(table.name, check, name);
  }

  /**
   * A CHECK constraint. The parser keeps no source positions, so the condition is the SQL it regenerates
   * (stable: reading it again gives the same text). Unnamed ones get MariaDB's names: a column's check is
   * named after the column, a table's `CONSTRAINT_<n>`.
   */
  private check(table: string, definition: Ast, column: string | null): void {
    const condition = arr(definition, 'definition')[0];
    if (!condition) return;
    let expression: string;
    try {
      expression = mysqlParser().exprToSQL({ ...condition, parentheses: false } as never, OPTIONS);
    } catch {
      this.builder.warn('expression_dropped', `${table}: a CHECK constraint could not be read; not kept`);
      return;
    }
    let name = str(definition, 'constraint') ?? column;
    if (name === null) {
      const taken = new Set(this.builder.table(table)?.checks.map((check) => check.name));
      let n = 1;
      while (taken.has(`CONSTRAINT_${n}`)) n++;
      name = `CONSTRAINT_${n}`;
    }
    this.builder.addCheck(table, name, expression);
  }

  private defaultText(value: Ast | undefined): string | null {
    if (!value) return null;
    switch (str(value, 'type')) {
      case 'null':
        return null; // DEFAULT NULL is the absence of a default
      case 'single_quote_string':
      case 'string':
        return `'${String(raw(value, 'value') ?? '')}'`;
      case 'double_quote_string':
        return `'${String(raw(value, 'value') ?? '').replace(/'/g, "''")}'`;
      case 'number':
      case 'bool':
        return String(raw(value, 'value'));
      default: {
        // Expressions and functions: regenerate the SQL, without the `ON UPDATE` clause the parser attaches.
        const copy: Ast = { ...value };
        if (str(obj(copy, 'over'), 'type') === 'on update') copy['over'] = null;
        try {
          return mysqlParser().exprToSQL(copy as never, OPTIONS);
        } catch {
          return null;
        }
      }
    }
  }

  private definition(table: string, definition: Ast): void {
    const columns = arr(definition, 'definition')
      .map(columnOf)
      .filter((name): name is string => name !== undefined);
    const resource = str(definition, 'resource');
    const constraintType = (str(definition, 'constraint_type') ?? '').toLowerCase();
    const keyword = (str(definition, 'keyword') ?? '').toLowerCase();
    const indexName = str(definition, 'index') ?? str(definition, 'constraint');
    const using = usingOf(definition);
    const method = using !== undefined ? { method: using } : {};
    if (constraintType === 'primary key') {
      this.builder.addIndex(table, { name: 'PRIMARY', type: 'primary', columns, ...method });
    } else if (constraintType.startsWith('unique')) {
      this.builder.addIndex(table, {
        name: indexName ?? columns[0] ?? 'unique',
        type: 'unique',
        columns,
        ...method,
      });
    } else if (constraintType === 'foreign key') {
      const reference = obj(definition, 'reference_definition');
      if (reference) this.foreignKey(table, str(definition, 'constraint') ?? null, columns, reference);
    } else if (constraintType === 'check') {
      this.check(table, definition, null);
    } else if (resource === 'index') {
      const kind = /fulltext|spatial/.exec(keyword)?.[0] as 'fulltext' | 'spatial' | undefined;
      const method = kind ?? usingOf(definition);
      this.builder.addIndex(table, {
        name: indexName ?? columns[0] ?? 'index',
        type: 'index',
        columns,
        ...(method !== undefined ? { method } : {}),
      });
    }
  }

  private foreignKey(table: string, name: string | null, columns: string[], reference: Ast): void {
    let onDelete: string | null = null;
    let onUpdate: string | null = null;
    for (const action of arr(reference, 'on_action')) {
      const value = (str(obj(action, 'value'), 'value') ?? '').toLowerCase();
      const kept = ACTIONS.has(value) ? value : null;
      if (str(action, 'type') === 'on delete') onDelete = kept;
      else if (str(action, 'type') === 'on update') onUpdate = kept;
    }
    this.builder.addForeignKey({
      name,
      table,
      columns,
      refTable: this.tableName(arr(reference, 'table')[0]),
      refColumns: arr(reference, 'definition')
        .map(columnOf)
        .filter((column): column is string => column !== undefined),
      onDelete,
      onUpdate,
    });
  }

  private createIndex(node: Ast): void {
    const table = this.tableName(obj(node, 'table'));
    const kind = (str(node, 'index_type') ?? '').toLowerCase();
    const name = str(node, 'index') ?? '';
    const columns = arr(node, 'index_columns')
      .map(columnOf)
      .filter((column): column is string => column !== undefined);
    const method =
      kind === 'fulltext' || kind === 'spatial'
        ? kind
        : usingOf({ index_type: obj(node, 'index_using') ?? null });
    this.builder.addIndex(table, {
      name,
      type: kind === 'unique' ? 'unique' : 'index',
      columns,
      ...(method !== undefined ? { method } : {}),
    });
  }

  private alterTable(node: Ast): boolean {
    const name = this.tableName(arr(node, 'table')[0]);
    const table = this.builder.table(name);
    let shaped = false;
    for (const expr of arr(node, 'expr')) {
      const action = str(expr, 'action');
      const resource = str(expr, 'resource');
      if (action === 'add' && resource === 'constraint') {
        const definition = obj(expr, 'create_definitions');
        if (definition) this.definition(name, definition);
        shaped = true;
      } else if (action === 'add' && resource === 'index') {
        this.definition(name, expr);
        shaped = true;
      } else if ((action === 'add' || action === 'modify') && resource === 'column' && table) {
        this.addColumn(table, expr);
        shaped = true;
      } else if ((action === 'drop' || action === 'rename' || action === 'change') && resource && table) {
        // Read, but not replayed: the diagram shows the table as created, so say so.
        this.builder.warn(
          'not_imported',
          `ALTER TABLE ${name}: ${action.toUpperCase()} ${resource.toUpperCase()} is not applied; the table is shown as created`,
        );
        shaped = true;
      }
    }
    return shaped;
  }
}

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

export async function readMysql(
  sql: string,
  parse: MysqlStatementParser = parseMysqlStatements,
): Promise<SchemaBuilder> {
  return new MysqlReader().read(sql, parse);
}
