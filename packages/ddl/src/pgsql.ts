// PostgreSQL DDL reader: libpg-query (the PostgreSQL 18 server's own parser compiled to WebAssembly) parses
// each statement; this file walks the parse trees of the statements that shape a schema.
import { DRIVER_INDEX_METHODS, type IndexMethod } from '@dss/schema';
import { type Ast, arr, isAst, num, obj, str, tagged } from './ast';
import { type DdlColumn, type DdlTable, SchemaBuilder } from './builder';
import { type Attempt, parseWithRepairs, type Recovered } from './recover';
import { checkExpressionAt, expressionAt } from './result';
import { LineMap, type Piece, splitStatements } from './split';

const DEFAULT_SCHEMA = 'public';
/** Index methods the model keeps (PostgreSQL's built-in ones). */
const PG_INDEX_METHODS: ReadonlySet<string> = new Set(DRIVER_INDEX_METHODS.pgsql);
const STOP_WORDS = /^(not|null|constraint|primary|unique|references|check|generated|collate|default)$/i;
/** Statements that shape a table: when one does not parse, clause-level repairs are tried before skipping it. */
const SHAPING =
  /^\s*(create\s+(?:(?:global|local)\s+)?(?:(?:temp|temporary|unlogged)\s+)?table|alter\s+table|create\s+(?:unique\s+)?index|comment\s+on)\b/i;

const ALTER_NAMES: Record<string, string> = {
  AT_DropColumn: 'DROP COLUMN',
  AT_AlterColumnType: 'ALTER COLUMN … TYPE',
  AT_DropConstraint: 'DROP CONSTRAINT',
};

const FK_ACTIONS: Record<string, string | null> = {
  a: null,
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/** Interval field masks (PostgreSQL's INTERVAL_MASK bits) to the written field phrase. */
const INTERVAL_FIELDS: Record<number, string> = {
  4: 'year',
  2: 'month',
  8: 'day',
  1024: 'hour',
  2048: 'minute',
  4096: 'second',
  6: 'year to month',
  1032: 'day to hour',
  3080: 'day to minute',
  7176: 'day to second',
  3072: 'hour to minute',
  7168: 'hour to second',
  6144: 'minute to second',
};

let loaded: Promise<void> | undefined;

interface Statement {
  piece: Piece;
  /** UTF-8 bytes of the piece when it has non-ASCII text (parser locations are byte offsets). */
  bytes: Buffer | null;
}

function charOffset(statement: Statement, byteOffset: number): number {
  return statement.bytes ? statement.bytes.subarray(0, byteOffset).toString('utf8').length : byteOffset;
}

/** A parser position (a byte offset) as a character offset in `text`. */
function charAt(text: string, byteOffset: number): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII test
  if (!/[^\u0000-\u007f]/.test(text)) return byteOffset;
  return Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8').length;
}

function names(list: Ast[]): string[] {
  return list.map((node) => str(obj(node, 'String'), 'sval') ?? '');
}

function qualified(schema: string | undefined, name: string): string {
  return schema && schema !== DEFAULT_SCHEMA && schema !== 'pg_catalog' ? `${schema}.${name}` : name;
}

function relationName(relation: Ast | undefined): string {
  return qualified(str(relation, 'schemaname'), str(relation, 'relname') ?? '');
}

/** The names of the columns an expression reads (the last field of each ColumnRef). */
function collectColumnRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const child of node) collectColumnRefs(child, into);
  else if (isAst(node))
    for (const [key, child] of Object.entries(node)) {
      if (key === 'ColumnRef') {
        const field = names(arr(child, 'fields')).pop();
        if (field !== undefined) into.add(field);
      } else collectColumnRefs(child, into);
    }
}

/** The smallest `location` in a parse tree (a cast's own location is its `::`, after its operand). */
function leftmostLocation(node: unknown): number | undefined {
  let best: number | undefined;
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'location' && typeof child === 'number' && child >= 0) {
          if (best === undefined || child < best) best = child;
        } else visit(child);
      }
    }
  };
  visit(node);
  return best;
}

class PgReader {
  readonly builder = new SchemaBuilder('pgsql');
  private readonly enums = new Map<string, string[]>();
  private readonly domains = new Map<string, Ast>();
  private statement!: Statement;
  private lines!: LineMap;

  read(sql: string): SchemaBuilder {
    const lines = new LineMap(sql);
    this.lines = lines;
    for (const piece of splitStatements('pgsql', sql)) {
      const text = piece.text;
      const start = piece.offset + (text.length - text.trimStart().length);
      const here = lines.at(start);
      this.builder.at(here.line, here.column, text);
      if (text.trimStart().startsWith('\\')) {
        this.builder.skipped++;
        this.builder.warn('meta_command_skipped', `psql meta-command skipped: ${text.trim().split(/\s/)[0]}`);
        continue;
      }
      const parse = (candidate: string): Attempt<unknown> => {
        try {
          return { ok: true, tree: libpgQuery().parseSync(candidate) };
        } catch (error) {
          const position = (error as { sqlDetails?: { cursorPosition?: number } }).sqlDetails?.cursorPosition;
          return {
            ok: false,
            offset: position === undefined ? null : charAt(candidate, position),
            message: (error as Error).message,
          };
        }
      };
      const first = parse(text);
      const recovered: Recovered<unknown> = first.ok
        ? { ok: true, tree: first.tree, repairs: [] }
        : SHAPING.test(text)
          ? parseWithRepairs(text, parse, false, first)
          : { ok: false, offset: first.offset, message: first.message };
      if (!recovered.ok) {
        const at = lines.at(piece.offset + (recovered.offset ?? 0));
        this.builder.unreadable(at.line, at.column, recovered.message, text);
        continue;
      }
      let statementText = text;
      for (const repair of recovered.repairs) {
        const at = lines.at(piece.offset + repair.offset);
        this.builder.warn(repair.code, repair.message, at);
        statementText = repair.text;
      }
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII test
      const bytes = /[^\u0000-\u007f]/.test(statementText) ? Buffer.from(statementText, 'utf8') : null;
      this.statement = { piece: { text: statementText, offset: piece.offset }, bytes };
      for (const raw of arr(recovered.tree, 'stmts')) {
        const node = tagged(obj(raw, 'stmt'));
        if (!node || !this.statementNode(node[0], node[1])) this.builder.skipped++;
      }
    }
    return this.builder;
  }

  /** Reads one parsed statement; false when it does not shape the schema. */
  private statementNode(kind: string, node: Ast): boolean {
    switch (kind) {
      case 'CreateStmt':
        this.createTable(node);
        return true;
      case 'AlterTableStmt':
        return this.alterTable(node);
      case 'IndexStmt':
        this.createIndex(node);
        return true;
      case 'CommentStmt':
        return this.comment(node);
      case 'RenameStmt': {
        const renamed = str(node, 'renameType');
        if (renamed !== 'OBJECT_TABLE' && renamed !== 'OBJECT_COLUMN') return false;
        if (!this.builder.table(relationName(obj(node, 'relation')))) return false;
        this.builder.warn(
          'not_imported',
          `ALTER TABLE ${relationName(obj(node, 'relation'))}: RENAME ${renamed === 'OBJECT_TABLE' ? 'TO' : 'COLUMN'} is not applied; the table is shown as created`,
        );
        return true;
      }
      case 'CreateEnumStmt':
        this.enums.set(this.typeKey(names(arr(node, 'typeName'))), names(arr(node, 'vals')));
        return true;
      case 'CreateDomainStmt': {
        const typeName = obj(node, 'typeName');
        if (typeName) this.domains.set(this.typeKey(names(arr(node, 'domainname'))), typeName);
        return true;
      }
      default:
        return false;
    }
  }

  private typeKey(parts: string[]): string {
    const name = parts[parts.length - 1] ?? '';
    return qualified(parts.length > 1 ? parts[parts.length - 2] : undefined, name);
  }

  private createTable(node: Ast): void {
    const name = relationName(obj(node, 'relation'));
    const table = this.builder.addTable(name);
    if (obj(node, 'partbound')) {
      // PARTITION OF: the columns are the parent's.
      const parent = this.builder.table(relationName(obj(arr(node, 'inhRelations')[0], 'RangeVar')));
      if (parent) table.columns = parent.columns.map((column) => ({ ...column, primary: false }));
    }
    const later: Ast[] = [];
    for (const element of arr(node, 'tableElts')) {
      const columnDef = obj(element, 'ColumnDef');
      if (columnDef) {
        this.addColumn(table, columnDef);
        continue;
      }
      const constraint = obj(element, 'Constraint');
      if (constraint) later.push(constraint);
    }
    for (const constraint of later) this.tableConstraint(table.name, constraint);
  }

  private addColumn(table: DdlTable, def: Ast): void {
    const name = str(def, 'colname') ?? '';
    const typeName = obj(def, 'typeName');
    const { written, enumValues, enumName, serial } = this.writtenType(typeName);
    // Warnings about this column point at it, not at its statement.
    const saved = this.builder.here;
    const location = num(def, 'location');
    if (location !== undefined)
      this.builder.here = {
        ...saved,
        ...this.lines.at(this.statement.piece.offset + charOffset(this.statement, location)),
      };
    const { type, unsigned } = this.builder.resolveType(table.name, name, written, enumValues);
    const column: DdlColumn = {
      name,
      written,
      type,
      default: null,
      // serial types imply NOT NULL (PostgreSQL adds the constraint itself).
      nullable: !serial,
      primary: false,
      unique: false,
      autoIncrement: serial,
      unsigned,
      comment: null,
      ...(enumName !== undefined ? { enumName } : {}),
    };
    // `COLLATE "C"`; `pg_catalog."default"` is no collation of its own.
    const collation = names(arr(obj(def, 'collClause'), 'collname'));
    const collationName = collation[collation.length - 1];
    if (collationName !== undefined && collationName !== 'default') column.collation = collationName;
    const existing = table.columns.findIndex((c) => c.name === name);
    if (existing >= 0) table.columns[existing] = column;
    else table.columns.push(column);
    for (const wrapper of arr(def, 'constraints')) {
      const constraint = obj(wrapper, 'Constraint');
      if (!constraint) continue;
      switch (str(constraint, 'contype')) {
        case 'CONSTR_NOTNULL':
          column.nullable = false;
          break;
        case 'CONSTR_DEFAULT':
          column.default = this.defaultText(constraint);
          if (/^nextval\s*\(/i.test(column.default ?? '')) column.autoIncrement = true;
          break;
        case 'CONSTR_IDENTITY':
          column.autoIncrement = true;
          column.nullable = false;
          break;
        case 'CONSTR_PRIMARY':
          this.builder.addIndex(table.name, {
            name: str(constraint, 'conname') ?? `${table.name.split('.').pop()}_pkey`,
            type: 'primary',
            columns: [name],
          });
          break;
        case 'CONSTR_UNIQUE':
          this.builder.addIndex(table.name, {
            name: str(constraint, 'conname') ?? `${table.name.split('.').pop()}_${name}_key`,
            type: 'unique',
            columns: [name],
            constraint: true,
          });
          break;
        case 'CONSTR_FOREIGN':
          this.foreignKey(table.name, constraint, [name]);
          break;
        case 'CONSTR_CHECK':
          this.check(table.name, constraint, name);
          break;
        case 'CONSTR_GENERATED':
          this.builder.warn(
            'expression_dropped',
            `${table.name}.${name}: generated column; its expression is not kept`,
          );
          break;
        default:
          break;
      }
    }
    this.builder.here = saved;
  }

  /** The default expression as written in the source (`'x'::character varying`, `now()`). */
  private defaultText(constraint: Ast): string | null {
    const location = num(constraint, 'location');
    if (location === undefined) return null;
    const text = this.statement.piece.text;
    const start = charOffset(this.statement, location);
    const keyword = /^default\s+/i.exec(text.slice(start, start + 16));
    const expression = expressionAt(text, start + (keyword ? keyword[0].length : 0), STOP_WORDS);
    return expression === '' || /^null$/i.test(expression) ? null : expression;
  }

  private writtenType(typeName: Ast | undefined): {
    written: string;
    enumValues?: string[];
    enumName?: string;
    serial: boolean;
  } {
    const parts = names(arr(typeName, 'names'));
    const array = arr(typeName, 'arrayBounds').length > 0 ? '[]' : '';
    const key = this.typeKey(parts);
    const enumValues = this.enums.get(key);
    if (enumValues) return { written: `enum${array}`, enumValues, enumName: key, serial: false };
    const domain = this.domains.get(key);
    if (domain) {
      const base = this.writtenType(domain);
      return { ...base, written: base.written + array };
    }
    const base = parts[parts.length - 1] ?? '';
    // Modifiers are numbers, or names for extension types (`geometry(Point, 4326)`).
    const mods = arr(typeName, 'typmods').map((mod): number | string => {
      const ref = obj(mod, 'ColumnRef');
      if (ref) return names(arr(ref, 'fields')).join('.');
      // A_Const's ival of 0 is printed as an empty object.
      return num(obj(obj(mod, 'A_Const'), 'ival'), 'ival') ?? 0;
    });
    let written = parts.length > 1 ? `${parts[parts.length - 2]}.${base}` : base;
    if (base === 'interval' && mods.length > 0) {
      const fields = INTERVAL_FIELDS[Number(mods[0] ?? 0)];
      if (fields) written += ` ${fields}`;
      if (mods.length > 1) written += `(${mods[1]})`;
    } else if (mods.length > 0) written += `(${mods.join(',')})`;
    const serial = parts.length === 1 && /^(small|big)?serial[248]?$/i.test(base);
    return { written: written + array, serial };
  }

  private tableConstraint(table: string, constraint: Ast): void {
    const keys = names(arr(constraint, 'keys'));
    const conname = str(constraint, 'conname');
    const short = table.split('.').pop() ?? table;
    switch (str(constraint, 'contype')) {
      case 'CONSTR_PRIMARY':
        this.builder.addIndex(table, { name: conname ?? `${short}_pkey`, type: 'primary', columns: keys });
        break;
      case 'CONSTR_UNIQUE':
        this.builder.addIndex(table, {
          name: conname ?? `${short}_${keys.join('_')}_key`,
          type: 'unique',
          columns: keys,
          constraint: true,
        });
        break;
      case 'CONSTR_FOREIGN':
        this.foreignKey(table, constraint, names(arr(constraint, 'fk_attrs')));
        break;
      case 'CONSTR_CHECK':
        this.check(table, constraint, null);
        break;
      default:
        break;
    }
  }

  /**
   * A CHECK constraint, its condition as written. Unnamed ones get the name PostgreSQL gives them:
   * `<table>_<column>_check` when the condition reads one column (or is written on a column), else
   * `<table>_check`, numbered when taken.
   */
  private check(table: string, constraint: Ast, column: string | null): void {
    const location = num(constraint, 'location');
    if (location === undefined) return;
    const expression = checkExpressionAt(this.statement.piece.text, charOffset(this.statement, location));
    if (expression === null) return;
    let name = str(constraint, 'conname');
    if (name === undefined) {
      const read = new Set<string>();
      collectColumnRefs(obj(constraint, 'raw_expr'), read);
      const only = column ?? (read.size === 1 ? [...read][0] : undefined);
      const base = `${table.split('.').pop()}${only === undefined ? '' : `_${only}`}_check`;
      const taken = new Set(this.builder.table(table)?.checks.map((check) => check.name));
      name = base;
      for (let n = 1; taken.has(name); n++) name = `${base}${n}`;
    }
    this.builder.addCheck(table, name, expression);
  }

  private foreignKey(table: string, constraint: Ast, columns: string[]): void {
    this.builder.addForeignKey({
      name: str(constraint, 'conname') ?? null,
      table,
      columns,
      refTable: relationName(obj(constraint, 'pktable')),
      refColumns: names(arr(constraint, 'pk_attrs')),
      onDelete: FK_ACTIONS[str(constraint, 'fk_del_action') ?? 'a'] ?? null,
      onUpdate: FK_ACTIONS[str(constraint, 'fk_upd_action') ?? 'a'] ?? null,
    });
  }

  private alterTable(node: Ast): boolean {
    if (str(node, 'objtype') !== 'OBJECT_TABLE') return false;
    const name = relationName(obj(node, 'relation'));
    const table = this.builder.table(name);
    let shaped = false;
    for (const wrapper of arr(node, 'cmds')) {
      const cmd = obj(wrapper, 'AlterTableCmd');
      const subtype = str(cmd, 'subtype');
      const column = str(cmd, 'name');
      switch (subtype) {
        case 'AT_AddConstraint': {
          const constraint = obj(obj(cmd, 'def'), 'Constraint');
          if (constraint) this.tableConstraint(name, constraint);
          shaped = true;
          break;
        }
        case 'AT_AddColumn': {
          const def = obj(obj(cmd, 'def'), 'ColumnDef');
          if (def && table) this.addColumn(table, def);
          shaped = true;
          break;
        }
        case 'AT_ColumnDefault': {
          const target = column !== undefined ? this.builder.column(name, column) : undefined;
          if (target) {
            const expression = this.expressionText(obj(cmd, 'def'));
            target.default = expression;
            if (/^nextval\s*\(/i.test(expression ?? '')) target.autoIncrement = true;
          }
          shaped = true;
          break;
        }
        case 'AT_AddIdentity': {
          const target = column !== undefined ? this.builder.column(name, column) : undefined;
          if (target) target.autoIncrement = true;
          shaped = true;
          break;
        }
        case 'AT_SetNotNull':
        case 'AT_DropNotNull': {
          const target = column !== undefined ? this.builder.column(name, column) : undefined;
          if (target) target.nullable = subtype === 'AT_DropNotNull';
          shaped = true;
          break;
        }
        case 'AT_DropColumn':
        case 'AT_AlterColumnType':
        case 'AT_DropConstraint':
          // Read, but not replayed: the diagram shows the table as created, so say so (not for a table
          // defined later: pg_dump --clean drops constraints before it creates the tables).
          if (!table) break;
          this.builder.warn(
            'not_imported',
            `ALTER TABLE ${name}: ${ALTER_NAMES[subtype]}${column ? ` ${column}` : ''} is not applied; the table is shown as created`,
          );
          shaped = true;
          break;
        default:
          break;
      }
    }
    return shaped;
  }

  /** The source text of an expression node (`ALTER COLUMN c SET DEFAULT expr`), from its leftmost token. */
  private expressionText(node: Ast | undefined): string | null {
    const location = leftmostLocation(node);
    if (location === undefined) return null;
    const text = this.statement.piece.text;
    // Parentheses carry no location: widen to the opening ones written before the leftmost token.
    let start = charOffset(this.statement, location);
    for (let i = start - 1; i >= 0 && /[\s(]/.test(text[i] ?? ''); i--) if (text[i] === '(') start = i;
    const expression = expressionAt(text, start, STOP_WORDS);
    return expression === '' || /^null$/i.test(expression) ? null : expression;
  }

  private createIndex(node: Ast): void {
    const table = relationName(obj(node, 'relation'));
    const columns: string[] = [];
    for (const param of arr(node, 'indexParams')) {
      const column = str(obj(param, 'IndexElem'), 'name');
      if (column === undefined) {
        this.builder.warn(
          'index_skipped',
          `index ${str(node, 'idxname') ?? ''} on ${table} has an expression; skipped`,
        );
        return;
      }
      columns.push(column);
    }
    const name = str(node, 'idxname') ?? `${table.split('.').pop()}_${columns.join('_')}_idx`;
    const primary = node['primary'] === true;
    let method = (str(node, 'accessMethod') ?? 'btree').toLowerCase();
    // An operator class (`gin_trgm_ops`) is not in the model: without it the method would not load, so
    // such an index is kept as a plain one (as before methods were kept).
    const opclass = arr(node, 'indexParams').some(
      (param) => arr(obj(param, 'IndexElem'), 'opclass').length > 0,
    );
    if (opclass) method = 'btree';
    this.builder.addIndex(table, {
      name,
      type: primary ? 'primary' : node['unique'] === true ? 'unique' : 'index',
      columns,
      ...(PG_INDEX_METHODS.has(method) && method !== 'btree' ? { method: method as IndexMethod } : {}),
    });
    if (!PG_INDEX_METHODS.has(method))
      this.builder.warn('not_imported', `index ${name} on ${table}: method ${method} is not kept (btree)`);
  }

  private comment(node: Ast): boolean {
    const objtype = str(node, 'objtype');
    const comment = str(node, 'comment') ?? null;
    if (objtype === 'OBJECT_TABLE') {
      const parts = names(arr(obj(obj(node, 'object'), 'List'), 'items'));
      const table = this.builder.table(this.typeKey(parts));
      if (table) table.comment = comment;
      return true;
    }
    if (objtype === 'OBJECT_COLUMN') {
      const parts = names(arr(obj(obj(node, 'object'), 'List'), 'items'));
      const column = parts.pop() ?? '';
      const target = this.builder.column(this.typeKey(parts), column);
      if (target) target.comment = comment;
      return true;
    }
    return false;
  }
}

let loadedLibrary: typeof import('libpg-query') | undefined;
/** libpg-query, required on first use: a process that only runs the conversion pool never loads it. */
function libpgQuery(): typeof import('libpg-query') {
  loadedLibrary ??= require('libpg-query') as typeof import('libpg-query');
  return loadedLibrary;
}

export async function readPgsql(sql: string): Promise<SchemaBuilder> {
  loaded ??= libpgQuery().loadModule();
  await loaded;
  return new PgReader().read(sql);
}
