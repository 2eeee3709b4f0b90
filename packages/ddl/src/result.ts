import type { DiagramDocument } from '@dss/schema';

export type DdlDriver = 'mysql' | 'pgsql' | 'sqlsrv';

export type DdlErrorCode = 'ddl_syntax_error' | 'ddl_no_tables' | 'ddl_internal_error';

export type ConvertResult =
  | {
      ok: true;
      document: DiagramDocument;
      /** Statements that do not shape the schema (SET, GRANT, functions, views, inserts…) or could not be read. */
      skipped: number;
      warnings: string[];
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
