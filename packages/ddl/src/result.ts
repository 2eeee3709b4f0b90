import type { DiagramDocument } from '@dss/schema';

export type DdlDriver = 'mysql' | 'pgsql' | 'sqlsrv';

/** What a script is written in: SQL DDL of the driver, or DBML (imported as the DDL it is written as). */
export type SourceFormat = 'sql' | 'dbml';

export type DdlErrorCode = 'ddl_syntax_error' | 'ddl_no_tables' | 'ddl_internal_error';

/**
 * What a warning is about. The first four are parts of the script that could not be read; the others are
 * read but not (wholly) representable in a diagram.
 */
export type DdlWarningCode =
  /** A statement the parser could not read, skipped whole (the rest of the script is imported). */
  | 'statement_skipped'
  /** A clause inside a CREATE/ALTER TABLE the parser could not read: that clause was dropped, the rest kept. */
  | 'clause_dropped'
  /** A column or table constraint the parser could not read at all: that element was dropped. */
  | 'element_dropped'
  /** Table options after the column list that the parser could not read: dropped. */
  | 'table_options_dropped'
  /** A psql meta-command (`\connect`, `\restrict`), not SQL: skipped. */
  | 'meta_command_skipped'
  /** A type outside the driver's data-type catalog (extension types): the closest catalog type is used. */
  | 'type_substituted'
  /** A column whose value is computed (generated/computed column): the expression is not kept. */
  | 'expression_dropped'
  /** An index the model cannot hold (on an expression, full-text, spatial, or naming unknown columns). */
  | 'index_skipped'
  /** A foreign key whose table or columns are not defined in the script. */
  | 'foreign_key_skipped'
  /** A foreign key linking the same columns as another one: kept once. */
  | 'foreign_key_duplicate'
  /** A table defined twice: the later definition is kept. */
  | 'table_redefined'
  /** Read, but not representable (`CREATE TABLE … AS SELECT`, `LIKE`). */
  | 'not_imported';

/** One thing the import could not read or could not keep as written, at its place in the script. */
export interface DdlWarning {
  /** 1-based line and column in the script (of the problem when known, else of its statement). */
  line: number;
  column: number;
  code: DdlWarningCode;
  message: string;
  /** The statement's text, whitespace collapsed, shortened to about 200 characters. */
  statement: string;
}

/** At most this many warnings are kept (the count of all of them is `warnings_total`). */
export const MAX_WARNINGS = 100;

export type ConvertResult =
  | {
      ok: true;
      document: DiagramDocument;
      /** Statements that do not shape the schema (SET, GRANT, functions, views, inserts…) or could not be read. */
      skipped: number;
      /** The first MAX_WARNINGS warnings, in script order of discovery. */
      warnings: DdlWarning[];
      /** How many warnings there were in all. */
      warnings_total: number;
    }
  | { ok: false; code: DdlErrorCode; message: string; line?: number; column?: number };

/** Thrown by a dialect reader for a statement that shapes the schema but does not parse. */
export class DdlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

/**
 * The text of an expression starting at `start` in `text`: up to a comma or closing parenthesis at depth 0,
 * or a keyword that starts the next column constraint. Strings and quoted names are stepped over.
 */
export function expressionAt(text: string, start: number, stopWords: RegExp): string {
  let depth = 0;
  let i = start;
  let tokens = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === '\\' && c === "'" && text[i - 1] !== undefined && /[eE]/.test(text[i - 1] ?? ''))
          j += 2;
        else if (text[j] === close) {
          if (text[j + 1] === close) j += 2;
          else break;
        } else j++;
      }
      i = j + 1;
      tokens++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    } else if (c === ',' && depth === 0) break;
    else if (c === ';' && depth === 0) break;
    else if (/[A-Za-z_]/.test(c) && !/[\w$.]/.test(text[i - 1] ?? ' ')) {
      const word = /^[A-Za-z_][\w$]*/.exec(text.slice(i, i + 64))?.[0] ?? c;
      if (depth === 0 && tokens > 0 && stopWords.test(word)) break;
      i += word.length;
      tokens++;
      continue;
    }
    if (!/\s/.test(c)) tokens++;
    i++;
  }
  return text.slice(start, i).trim();
}

const NO_STOP_WORDS = /(?!)/;

/**
 * The condition of the `CHECK (…)` at or after `start`: the text inside its parentheses, as written
 * (strings and quoted names stepped over), or null when there is none.
 */
export function checkExpressionAt(text: string, start: number): string | null {
  const match = /\bcheck\s*\(/i.exec(text.slice(start));
  if (match === null) return null;
  const expression = expressionAt(text, start + match.index + match[0].length, NO_STOP_WORDS);
  return expression === '' ? null : expression;
}

/** A statement's text for a warning: whitespace collapsed, at most about 200 characters. */
export function shortStatement(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
