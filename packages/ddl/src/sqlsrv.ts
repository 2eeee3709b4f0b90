// SQL Server DDL reader: @dbml/core's T-SQL front end (an ANTLR grammar of T-SQL) reads the schema
// statements; the rest of the script is not parsed at all.
//
// The script is split into `GO` batches and statements. The statements that shape a table (its CREATE
// TABLE, ALTER TABLEs, CREATE INDEXes) are gathered per table and each table's statements are parsed
// together, SLL first (antlr-prediction.ts); a syntax error names the statement's line and column in the
// script. Everything else (procedures, views, triggers, inserts, SET, USE, `CHECK CONSTRAINT` toggles) is
// skipped unparsed. Measured on AdventureWorks (322KB): the whole script in one LL parse took 3.7–4.8 s,
// table by table in LL about 2 s, table by table in SLL 0.66 s. Light pre-cleaning, each keeping the
// text's length: `dbo.` qualifiers are blanked (the default schema, dropped from names anyway), `WITH
// [NO]CHECK ADD` becomes `ADD`, typed XML `xml(CONTENT schema.collection)` becomes `xml`, `NOT FOR
// REPLICATION` is blanked.
//
// The parser loses `sp_addextendedproperty` (MS_Description comments) and `sp_addtype` / `CREATE TYPE …
// FROM` alias types; those two procedure calls are read from their literal arguments here.
import { parseTwoStage } from './antlr-prediction';
import { type Ast, arr, obj, raw, str } from './ast';
import { type DdlColumn, SchemaBuilder } from './builder';
import { dbmlCoreLite } from './dbml-core-lite';
import { MAX_REPAIRS, repairStatement } from './recover';
import { shortStatement } from './result';
import { LineMap, splitStatements } from './split';

const DEFAULT_SCHEMA = 'dbo';

const SHAPING = /^\s*(create\s+table|alter\s+table|create\s+(?:unique\s+)?(?:(?:non)?clustered\s+)?index)\b/i;
const ROUTINE = /^\s*(?:create|alter|create\s+or\s+alter)\s+(?:proc|procedure|function|trigger|view)\b/i;
// `ALTER TABLE t [NO]CHECK CONSTRAINT c` (SSMS prints one after every foreign key) only switches checking
// on or off, and `ENABLE/DISABLE TRIGGER` likewise: nothing for the diagram, so they are not parsed.
const NOT_SHAPING =
  /^\s*alter\s+table\s+(?:\[[^\]]*\]|"[^"]*"|[\w@#$]+)(?:\s*\.\s*(?:\[[^\]]*\]|"[^"]*"|[\w@#$]+))*\s+(?:with\s+(?:no)?check\s+)?(?:no)?check\s+constraint\b|\b(?:enable|disable)\s+trigger\b/i;
const LITERALS = /('(?:[^']|'')*'|\[(?:[^\]]|\]\])*\]|"(?:[^"]|"")*")/;
const LITERALS_GLOBAL = new RegExp(LITERALS.source, 'g');
const CLEANUPS: [RegExp, (match: string, ...groups: string[]) => string][] = [
  [/\bwith\s+(?:no)?check\s+add\b/gi, (m) => `${' '.repeat(m.length - 3)}ADD`],
  [/\bnot\s+for\s+replication\b/gi, blank],
  // @dbml/core reads a lower-case `not null` as nullable (its visitor compares the keyword's text).
  [/\bnot\s+null\b/gi, (m) => m.toUpperCase()],
];
/**
 * Clauses blanked wherever they are, names and strings inside them included (matched on a copy whose
 * quoted runs are masked). Temporal tables: the period columns stay ordinary columns; the period and the
 * versioning are not in the model (the history table, when scripted, is a table of its own).
 */
const CLAUSES: RegExp[] = [
  /\bgenerated\s+always\s+as\s+row\s+(?:start|end)(?:\s+hidden)?\b/gi,
  /,\s*period\s+for\s+system_time\s*\([^()]*\)/gi,
  /\bwith\s*\(\s*system_versioning\s*=\s*(?:on|off)\s*(?:\([^()]*\))?\s*\)/gi,
];

function blankClauses(text: string): string {
  const masked = text.replace(
    LITERALS_GLOBAL,
    (run) => run[0] + 'x'.repeat(run.length - 2) + run[run.length - 1],
  );
  let out = text;
  for (const pattern of CLAUSES)
    for (const match of masked.matchAll(pattern))
      out = out.slice(0, match.index) + blank(match[0]) + out.slice(match.index + match[0].length);
  return out;
}
const ACTIONS = new Set(['cascade', 'set null', 'set default', 'restrict']);

function blank(match: string): string {
  return match.replace(/[^\n]/g, ' ');
}

/** Pre-cleaning with quoted names and strings set aside; every replacement keeps the length. */
function preClean(source: string): string {
  const text = blankClauses(source);
  const parts = text.split(LITERALS);
  for (let i = 0; i < parts.length; i++) {
    let part = parts[i] as string;
    if (i % 2 === 0) {
      for (const [pattern, replace] of CLEANUPS) part = part.replace(pattern, replace);
    } else if (/^(\[dbo\]|"dbo")$/i.test(part) && /^\s*\./.test(parts[i + 1] ?? '')) {
      // `[dbo].` / `"dbo".`: blank the qualifier and its dot.
      part = blank(part);
      parts[i + 1] = (parts[i + 1] as string).replace(/^(\s*)\./, (_, space: string) => `${space} `);
    }
    parts[i] = part;
  }
  return parts
    .join('')
    .replace(/(?<![\w\]"])dbo\s*\.(?=\s*[\w["])/gi, blank)
    .replace(
      /(\[?xml\]?)(\s*\(\s*(?:(?:content|document)\s+)?(?:\[[^\]]*\]|\w+)(?:\s*\.\s*(?:\[[^\]]*\]|\w+))*\s*\))/gi,
      (_, type: string, rest: string) => type + blank(rest),
    );
}

/** The offset after the string literal starting at `i` (a `'`), doubled quotes stepped over. */
function literalEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    if (text[j] === "'") {
      if (text[j + 1] === "'") j += 2;
      else return j + 1;
    } else j++;
  }
  return text.length;
}

/** The offset after the parenthesis that closes the one at `open` (strings and brackets stepped over). */
function closeOf(text: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const c = text[i];
    if (c === "'") {
      i = literalEnd(text, i);
      continue;
    }
    if (c === '[') {
      const close = text.indexOf(']', i);
      i = close < 0 ? text.length : close + 1;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
    i++;
  }
  return text.length;
}

const IF_EXISTS = /\bif\s+(?:not\s+)?exists\s*\(/gi;
const IF_OBJECT_ID = /\bif\s+(?:object_id|type_id|schema_id)\s*\(/gi;
const DYNAMIC_SQL =
  /\bexec(?:ute)?\s*(?:(?:\[?dbo\]?\s*\.\s*)?\[?sp_executesql\]?\s+(?:@statement\s*=\s*)?|\(\s*)N?'/gi;

/**
 * Opens the wrappers SSMS ("check for object existence"), SQL Compare and SSDT put around DDL, keeping
 * line breaks (and, but for quotes un-doubled inside dynamic SQL, the length) so positions stay close:
 * `IF [NOT] EXISTS (…)` and `IF OBJECT_ID(…) IS [NOT] NULL` conditions are blanked, with the `BEGIN` and
 * matching `END` they guard; `EXEC [dbo.]sp_executesql [@statement =] N'…'` and `EXEC (N'…')` become the
 * statement they carry.
 */
export function unwrapBatch(batch: string): string {
  let text = batch;
  for (const pattern of [IF_EXISTS, IF_OBJECT_ID]) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      let end = closeOf(text, match.index + match[0].length - 1);
      if (pattern === IF_OBJECT_ID) {
        const tail = /^\s*is\s+(?:not\s+)?null\b/i.exec(text.slice(end));
        if (!tail) continue;
        end += tail[0].length;
      }
      text = text.slice(0, match.index) + blank(text.slice(match.index, end)) + text.slice(end);
      const begin = /^\s*begin\b(?!\s+(?:try|catch|tran|transaction|distributed)\b)/i.exec(text.slice(end));
      if (begin) {
        const close = matchingEnd(text, end + begin[0].length);
        text = text.slice(0, end) + blank(begin[0]) + text.slice(end + begin[0].length);
        if (close >= 0) text = text.slice(0, close) + '   ' + text.slice(close + 3);
      }
      pattern.lastIndex = end;
    }
  }
  DYNAMIC_SQL.lastIndex = 0;
  for (let match = DYNAMIC_SQL.exec(text); match; match = DYNAMIC_SQL.exec(text)) {
    const quote = match.index + match[0].length - 1;
    const end = literalEnd(text, quote);
    const inner = text.slice(quote + 1, end - 1).replace(/''/g, "'");
    let stop = end;
    // `EXEC (N'…')`: the closing parenthesis goes too.
    if (/\(\s*N?'$/.test(match[0])) stop = /^\s*\)/.exec(text.slice(end)) ? text.indexOf(')', end) + 1 : end;
    const replaced = blank(match[0].slice(0, -1)) + ' ' + inner + ' '.repeat(stop - quote - 1 - inner.length);
    text = text.slice(0, match.index) + replaced + text.slice(stop);
    DYNAMIC_SQL.lastIndex = match.index + replaced.length;
  }
  return text;
}

/** The offset of the `END` closing a `BEGIN` whose body starts at `from`, or -1 (CASE … END counted). */
function matchingEnd(text: string, from: number): number {
  let depth = 1;
  const word = /'(?:[^']|'')*'|\[[^\]]*\]|\b(begin|case|end)\b/gi;
  word.lastIndex = from;
  for (let match = word.exec(text); match; match = word.exec(text)) {
    const keyword = match[1]?.toLowerCase();
    if (!keyword) continue;
    if (keyword === 'end') {
      // `GENERATED ALWAYS AS ROW END` is a column's clause, not a block's end.
      if (/\brow\s+$/i.test(text.slice(Math.max(0, match.index - 8), match.index))) continue;
      if (--depth === 0) return match.index;
    } else if (
      keyword === 'case' ||
      !/^\s+(?:try|catch|tran|transaction|distributed)\b/i.test(text.slice(word.lastIndex))
    )
      depth++;
  }
  return -1;
}

/** A quoted T-SQL string literal or a bare word as written → its text. */
function literal(text: string): string {
  const quoted = /^N?'((?:[^']|'')*)'$/is.exec(text.trim());
  if (quoted) return (quoted[1] as string).replace(/''/g, "'");
  return text.trim().replace(/^\[|\]$/g, '');
}

/** Arguments of an EXEC call: named (`@name = N'…'`) or positional, as text. */
function execArguments(text: string, names: string[]): Map<string, string> {
  const args = new Map<string, string>();
  const start = text.search(/\bsp_\w+/i);
  const rest = text.slice(start).replace(/^sp_\w+\]?/i, '');
  const pieces = rest.match(/(@\w+\s*=\s*)?(N?'(?:[^']|'')*'|[^,\s][^,]*)/gis) ?? [];
  pieces.forEach((piece, index) => {
    const named = /^@(\w+)\s*=\s*([\s\S]*)$/.exec(piece.trim());
    if (named) args.set((named[1] as string).toLowerCase(), literal(named[2] as string));
    else if (names[index]) args.set(names[index] as string, literal(piece));
  });
  return args;
}

const EXTENDED_PROPERTY_ARGS = [
  'name',
  'value',
  'level0type',
  'level0name',
  'level1type',
  'level1name',
  'level2type',
  'level2name',
];

/**
 * The statements of a batch, cut at `;` (and, with `atKeywords`, before each EXEC/EXECUTE/CREATE keyword),
 * with string literals and bracketed or quoted names stepped over. Offsets are within the batch.
 */
function statementsOf(batch: string, atKeywords: boolean): { text: string; offset: number }[] {
  const statements: { text: string; offset: number }[] = [];
  let start = 0;
  let i = 0;
  const cut = (end: number) => {
    if (batch.slice(start, end).trim() !== '')
      statements.push({ text: batch.slice(start, end), offset: start });
  };
  while (i < batch.length) {
    const c = batch[i] as string;
    if (c === "'" || c === '[' || c === '"') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < batch.length) {
        if (batch[j] === close) {
          if (batch[j + 1] === close) j += 2;
          else break;
        } else j++;
      }
      i = j + 1;
      continue;
    }
    const keyword =
      atKeywords &&
      i > start &&
      /^(?:exec|execute|create)\b/i.test(batch.slice(i, i + 8)) &&
      !/[\w@#$.]/.test(batch[i - 1] ?? ' ');
    if (c === ';' || keyword) {
      cut(i);
      start = c === ';' ? i + 1 : i;
    }
    i++;
  }
  cut(batch.length);
  return statements;
}

/**
 * The statements that shape one table (its CREATE TABLE, then its ALTER TABLEs and CREATE INDEXes in script
 * order), parsed together: ALTER TABLE only applies to a table the same parse created, and parsing table
 * by table keeps ANTLR's lookahead within one table (the whole script at once costs several times more,
 * growing faster than the script) and names the failing statement's own line and column.
 */
interface Segment {
  /** The statement's pre-cleaned text (the same length as in the script). */
  text: string;
  /** As written, comments blanked (for warnings). */
  source: string;
  /** Where it starts in the script. */
  offset: number;
}

interface SchemaUnit {
  segments: Segment[];
}

const NAME_PART = String.raw`(?:\[(?:[^\]]|\]\])*\]|"(?:[^"]|"")*"|[\w@#$]+)`;
const TARGET = new RegExp(
  String.raw`^\s*(?:create\s+table|alter\s+table|create\b[\s\S]*?\bindex\s+${NAME_PART}\s+on)\s+(${NAME_PART}(?:\s*\.\s*${NAME_PART})*)`,
  'i',
);

/** The table a schema statement shapes, normalised for grouping (`[Sales] . [Order]` → `sales.order`). */
function targetTable(statement: string): string {
  const name = TARGET.exec(statement)?.[1];
  if (!name) return `?${statement.length}:${statement.slice(0, 64)}`;
  return name
    .split(/\s*\.\s*/)
    .map((part) => literal(part.replace(/^"|"$/g, '')).toLowerCase())
    .join('.');
}

/** One unit's parser output, or where its syntax error is within the unit's text. Plain data (crosses threads). */
export type UnitParse =
  | { ok: true; json: unknown }
  | { ok: false; line: number; column: number; message: string; located: boolean };

/**
 * Parses table units' texts (SLL first, LL on a syntax error). Pure and stateless, so a caller may hand
 * slices of the list to other threads (ConvertOptions.parseSqlsrvUnits) and keep the order of the answers.
 */
export function parseSqlsrvUnits(texts: string[]): UnitParse[] {
  const { parseMssql } = dbmlCoreLite();
  return texts.map((text) => {
    try {
      return { ok: true, json: parseTwoStage(() => parseMssql(text)) };
    } catch (error) {
      const first = Array.isArray(error) ? (error[0] as unknown) : error;
      const location = obj(obj(first, 'location'), 'start');
      const message = str(first, 'text') ?? str(first, 'message') ?? String(error);
      // ANTLR reports 1-based lines and 0-based columns within the unit's text.
      return {
        ok: false,
        line: Number(raw(location, 'line') ?? 1),
        column: Number(raw(location, 'column') ?? 0),
        message: message.split('\n')[0]?.slice(0, 200) ?? '',
        // The parser itself can fail without a position (an exception inside @dbml/core's visitor).
        located: location !== undefined,
      };
    }
  });
}

/** The character offset in `text` of a 1-based line and 0-based column. */
function offsetOf(text: string, line: number, column: number): number {
  let at = column;
  let row = 1;
  for (let i = 0; i < text.length && row < line; i++) {
    if (text[i] === '\n') {
      row++;
      at = i + 1 + column;
    }
  }
  return Math.min(at, text.length);
}

/** The unit's text: its statements joined by `;` and a newline. */
function unitText(segments: Segment[]): string {
  return segments.map((segment) => segment.text).join(';\n');
}

/**
 * A name as the parser gives it back, without the quotes it was written in. The T-SQL grammar keeps the
 * brackets of a name that is also a keyword of its own (`[value]`, `[query]`), for tables, columns, keys and
 * references alike; any other name arrives bare. `]]` inside brackets is one `]`, `""` inside quotes one `"`.
 */
function identifier(name: string): string {
  const bracketed = /^\[((?:[^\]]|\]\])*)\]$/s.exec(name);
  if (bracketed) return (bracketed[1] as string).replace(/\]\]/g, ']');
  const quoted = /^"((?:[^"]|"")*)"$/s.exec(name);
  if (quoted) return (quoted[1] as string).replace(/""/g, '"');
  // Brackets the parser did take off leave their escapes: `[odd]] name]` arrives as `odd]] name`.
  return name.replace(/\]\]/g, ']');
}

function nameAt(node: unknown, key: string): string | undefined {
  const name = str(node, key);
  return name === undefined ? undefined : identifier(name);
}

function qualified(schema: string | null | undefined, name: string): string {
  return schema && schema.toLowerCase() !== DEFAULT_SCHEMA ? `${schema}.${name}` : name;
}

class SqlsrvReader {
  readonly builder = new SchemaBuilder('sqlsrv');
  private readonly aliasTypes = new Map<string, string>();

  private parseUnits: SqlsrvUnitParser = parseSqlsrvUnits;

  async read(sql: string, parseUnits: SqlsrvUnitParser): Promise<SchemaBuilder> {
    this.parseUnits = parseUnits;
    const units = new Map<string, SchemaUnit>();
    const comments: string[] = [];
    for (const split of splitStatements('sqlsrv', sql)) {
      // SSMS / SQL Compare wrappers: `IF NOT EXISTS (…) [BEGIN … END]` and `EXEC sp_executesql N'…'`.
      const piece = { ...split, text: unwrapBatch(split.text) };
      // Procedures, functions, triggers and views are skipped whole (their bodies may hold CREATE TABLE).
      if (ROUTINE.test(piece.text)) {
        this.builder.skipped++;
        continue;
      }
      for (const statement of statementsOf(piece.text, false)) {
        const text = statement.text;
        if (SHAPING.test(text) && !NOT_SHAPING.test(text)) {
          const cleaned = preClean(text);
          const key = targetTable(cleaned);
          let unit = units.get(key);
          if (!unit) {
            unit = { segments: [] };
            units.set(key, unit);
          }
          unit.segments.push({ text: cleaned, source: text, offset: piece.offset + statement.offset });
          continue;
        }
        for (const call of statementsOf(text, true))
          if (!this.procedureCall(call.text, comments)) this.builder.skipped++;
      }
    }
    if (units.size === 0) return this.builder;
    const lines = new LineMap(sql);
    const list = [...units.values()];
    const results = await parseUnits(list.map((unit) => unitText(unit.segments)));
    const parsed: { json: unknown; unit: SchemaUnit }[] = [];
    for (const [index, result] of results.entries()) {
      const unit = list[index] as SchemaUnit;
      const json = result.ok ? result.json : await this.recover(unit, result, lines);
      if (json !== null) parsed.push({ json, unit });
    }
    // Warnings about a table point at the first statement of its unit.
    const locate = (unit: SchemaUnit) => {
      const first = unit.segments[0] as Segment;
      const place = lines.at(first.offset + (first.text.length - first.text.trimStart().length));
      this.builder.at(place.line, place.column, first.source);
    };
    for (const { json, unit } of parsed) {
      locate(unit);
      for (const table of arr(json, 'tables')) this.table(table);
    }
    for (const { json, unit } of parsed) {
      locate(unit);
      for (const ref of arr(json, 'refs')) this.ref(ref);
    }
    for (const text of comments) this.comment(text);
    return this.builder;
  }

  /**
   * A table's unit that does not parse: the statement the parser stopped in is repaired (recover.ts) or,
   * when nothing narrower can go, left out; then the unit is parsed again. Bounded: each round blanks or
   * removes something. Null when no statement of the unit is left.
   */
  private async recover(
    unit: SchemaUnit,
    failure: { line: number; column: number; message: string; located?: boolean },
    lines: LineMap,
  ): Promise<unknown> {
    const segments = unit.segments.map((segment) => ({ ...segment }));
    let current: { line: number; column: number; message: string; located?: boolean } = failure;
    for (let round = 0; round < MAX_REPAIRS + unit.segments.length; round++) {
      const text = unitText(segments);
      let index = 0;
      let within = 0;
      if (current.located === false) {
        // No position: the statement is the first whose prefix of the unit fails.
        const prefixes = await this.parseUnits(
          segments.map((_, end) => unitText(segments.slice(0, end + 1))),
        );
        index = prefixes.findIndex((answer) => !answer.ok);
        if (index < 0) index = segments.length - 1;
      } else {
        const at = offsetOf(text, current.line, current.column);
        let start = 0;
        while (index < segments.length - 1 && start + (segments[index] as Segment).text.length + 2 <= at) {
          start += (segments[index] as Segment).text.length + 2;
          index++;
        }
        within = Math.min(Math.max(at - start, 0), (segments[index] as Segment).text.length);
      }
      const segment = segments[index] as Segment;
      const lead = segment.text.length - segment.text.trimStart().length;
      const place = lines.at(segment.offset + (current.located === false ? lead : within));
      const source = segment.source;
      const repair = current.located === false ? null : repairStatement(segment.text, within, true);
      if (repair && repair.text !== segment.text) {
        this.builder.warn(repair.code, repair.message, {
          ...lines.at(segment.offset + repair.offset),
          statement: shortStatement(source),
        });
        segment.text = repair.text;
      } else {
        this.builder.at(place.line, place.column, source);
        this.builder.unreadable(place.line, place.column, current.message, source);
        segments.splice(index, 1);
        if (segments.length === 0) return null;
      }
      const [again] = await this.parseUnits([unitText(segments)]);
      if (!again || again.ok) return again?.json ?? null;
      current = again;
    }
    const last = segments[0] as Segment;
    const place = lines.at(last.offset);
    this.builder.unreadable(place.line, place.column, current.message, last.source);
    return null;
  }

  /** Reads the procedure calls the parser does not: alias types and MS_Description comments. */
  private procedureCall(text: string, comments: string[]): boolean {
    if (/\bsp_addextendedproperty\b/i.test(text)) {
      comments.push(text);
      return true;
    }
    if (/\bsp_addtype\b/i.test(text)) {
      const args = execArguments(text, ['typename', 'phystype', 'nulltype']);
      const name = args.get('typename');
      const type = args.get('phystype');
      if (name && type) this.aliasTypes.set(name.toLowerCase(), type);
      return true;
    }
    const alias =
      /^\s*create\s+type\s+((?:\[[^\]]+\]|\w+)\s*\.\s*)?(\[[^\]]+\]|\w+)\s+from\s+([\s\S]+?)\s*(?:(?:not\s+)?null\s*)?;?\s*$/i.exec(
        text,
      );
    if (alias) this.aliasTypes.set(literal(alias[2] as string).toLowerCase(), (alias[3] as string).trim());
    return alias !== null;
  }

  private table(node: Ast): void {
    const name = qualified(nameAt(node, 'schemaName'), nameAt(node, 'name') ?? '');
    const table = this.builder.addTable(name);
    for (const field of arr(node, 'fields')) {
      const columnName = nameAt(field, 'name') ?? '';
      let written = str(obj(field, 'type'), 'type_name') ?? '';
      let autoIncrement = raw(field, 'increment') === true;
      const identity = /\s+identity\s*(\([^)]*\))?\s*$/i.exec(written);
      if (identity) {
        written = written.slice(0, identity.index);
        autoIncrement = true;
      }
      let resolved: { type: DdlColumn['type']; unsigned: boolean };
      if (/^as\b/i.test(written)) {
        this.builder.warn(
          'expression_dropped',
          `${name}.${columnName}: computed column (${written}); imported as sql_variant`,
        );
        resolved = { type: { name: 'sql_variant', params: null }, unsigned: false };
      } else {
        const alias = this.aliasTypes.get(written.replace(/^\[|\]$/g, '').toLowerCase());
        resolved = this.builder.resolveType(name, columnName, alias ?? written);
      }
      const dbdefault = obj(field, 'dbdefault');
      const value = raw(dbdefault, 'value');
      const defaultText =
        value === undefined || value === null
          ? null
          : str(dbdefault, 'type') === 'string'
            ? `'${String(value).replace(/'/g, "''")}'`
            : String(value);
      const column: DdlColumn = {
        name: columnName,
        written,
        type: resolved.type,
        default: defaultText === null || /^null$/i.test(defaultText) ? null : defaultText,
        nullable: raw(field, 'not_null') !== true,
        primary: false,
        unique: false,
        autoIncrement,
        unsigned: false,
        comment: null,
      };
      table.columns.push(column);
      for (const check of arr(field, 'checks')) this.check(name, check, columnName);
      if (raw(field, 'pk') === true)
        this.builder.addIndex(name, {
          name: `PK_${nameAt(node, 'name') ?? ''}`,
          type: 'primary',
          columns: [columnName],
        });
      if (raw(field, 'unique') === true)
        this.builder.addIndex(name, {
          name: `UQ_${nameAt(node, 'name') ?? ''}_${columnName}`,
          type: 'unique',
          columns: [columnName],
        });
    }
    for (const check of arr(node, 'checks')) this.check(name, check, null);
    for (const index of arr(node, 'indexes')) {
      const columns: string[] = [];
      for (const column of arr(index, 'columns')) {
        if (str(column, 'type') !== 'column') {
          this.builder.warn(
            'index_skipped',
            `index ${str(index, 'name') ?? ''} on ${name} has an expression; skipped`,
          );
          columns.length = 0;
          break;
        }
        columns.push(nameAt(column, 'value') ?? '');
      }
      if (columns.length === 0) continue;
      const type = raw(index, 'pk') === true ? 'primary' : raw(index, 'unique') === true ? 'unique' : 'index';
      this.builder.addIndex(name, {
        name: nameAt(index, 'name') ?? `${type}_${columns.join('_')}`,
        type,
        columns,
      });
    }
  }

  /**
   * A CHECK constraint, its condition as the parser gives it back (as written). SQL Server names unnamed
   * ones at random, so they get stable names: `CK_<table>_<column>` on a column, else `CK_<table>_<n>`.
   */
  private check(table: string, node: Ast, column: string | null): void {
    const expression = (str(node, 'expression') ?? '').trim();
    if (expression === '') return;
    let name = nameAt(node, 'name');
    if (name === undefined || name === '') {
      const bare = table.split('.').pop() ?? table;
      const taken = new Set(this.builder.table(table)?.checks.map((check) => check.name));
      name = column === null ? `CK_${bare}_1` : `CK_${bare}_${column}`;
      for (let n = 2; taken.has(name); n++) name = `CK_${bare}_${column === null ? '' : `${column}_`}${n}`;
    }
    this.builder.addCheck(table, name, expression);
  }

  private ref(node: Ast): void {
    const [source, target] = arr(node, 'endpoints');
    if (!source || !target) return;
    const action = (key: string) => {
      const value = (str(node, key) ?? '').toLowerCase();
      return ACTIONS.has(value) ? value : null;
    };
    this.builder.addForeignKey({
      name: nameAt(node, 'name') ?? null,
      table: qualified(nameAt(source, 'schemaName'), nameAt(source, 'tableName') ?? ''),
      columns: ((raw(source, 'fieldNames') as string[] | undefined) ?? []).map((n) => identifier(String(n))),
      refTable: qualified(nameAt(target, 'schemaName'), nameAt(target, 'tableName') ?? ''),
      refColumns: ((raw(target, 'fieldNames') as string[] | undefined) ?? []).map((n) =>
        identifier(String(n)),
      ),
      onDelete: action('onDelete'),
      onUpdate: action('onUpdate'),
    });
  }

  /** `EXEC sp_addextendedproperty 'MS_Description', 'text', 'SCHEMA', s, 'TABLE', t[, 'COLUMN', c]`. */
  private comment(text: string): void {
    const args = execArguments(text, EXTENDED_PROPERTY_ARGS);
    if ((args.get('name') ?? '').toLowerCase() !== 'ms_description') return;
    if ((args.get('level1type') ?? '').toLowerCase() !== 'table') return;
    const table = qualified(args.get('level0name'), args.get('level1name') ?? '');
    const value = args.get('value') ?? null;
    const level2 = (args.get('level2type') ?? '').toLowerCase();
    if (level2 === '') {
      const target = this.builder.table(table);
      if (target) target.comment = value;
    } else if (level2 === 'column') {
      const target = this.builder.column(table, args.get('level2name') ?? '');
      if (target) target.comment = value;
    }
  }
}

/** Parses unit texts, answering in the same order; by default on this thread. */
export type SqlsrvUnitParser = (texts: string[]) => Promise<UnitParse[]> | UnitParse[];

export async function readSqlsrv(
  sql: string,
  parseUnits: SqlsrvUnitParser = parseSqlsrvUnits,
): Promise<SchemaBuilder> {
  return new SqlsrvReader().read(sql, parseUnits);
}
