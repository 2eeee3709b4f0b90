// How deep a DDL script nests, found by one pass over its characters before any parser sees it. The SQL
// parsers recurse on nested parentheses (MySQL's overflows the stack a few thousand deep, SQL Server's
// takes tens of seconds at a few hundred), and PostgreSQL nests block comments; a script deeper than a
// person writes is refused up front with the place it went too deep.

/** Deeper than any real script by far (CHECK constraints and defaults stay under about ten). */
export const MAX_DDL_NESTING = 64;

export interface DdlNestingProblem {
  /** 1-based, where the limit was passed. */
  line: number;
  column: number;
  message: string;
}

/**
 * The first place `sql` nests parentheses or block comments deeper than `limit`, or null. Strings,
 * quoted identifiers (`"…"`, `` `…` ``, `[…]`), line comments and PostgreSQL dollar-quoted bodies are
 * skipped, so parentheses inside them do not count.
 */
export function ddlNestingProblem(sql: string, limit = MAX_DDL_NESTING): DdlNestingProblem | null {
  let parentheses = 0;
  let comments = 0;
  let line = 1;
  let lineStart = 0;
  const at = (index: number, what: string): DdlNestingProblem => ({
    line,
    column: index - lineStart + 1,
    message: `nests ${what} deeper than ${limit} levels at line ${line}, column ${index - lineStart + 1}, the most a script may`,
  });
  for (let i = 0; i < sql.length; i++) {
    const char = sql[i];
    if (char === '\n') {
      line++;
      lineStart = i + 1;
      continue;
    }
    const next = sql[i + 1];
    if (comments > 0) {
      if (char === '*' && next === '/') {
        comments--;
        i++;
      } else if (char === '/' && next === '*') {
        if (++comments > limit) return at(i, 'block comments');
        i++;
      }
      continue;
    }
    if (char === '/' && next === '*') {
      comments = 1;
      i++;
    } else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = (end < 0 ? sql.length : end) - 1;
    } else if (char === "'" || char === '"' || char === '`' || char === '[') {
      const close = char === '[' ? ']' : char;
      i = skipQuoted(sql, i + 1, close, (newlineAt) => {
        line++;
        lineStart = newlineAt + 1;
      });
    } else if (char === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end < 0 ? sql.length : end + tag.length;
        for (let j = i; j < stop; j++)
          if (sql[j] === '\n') {
            line++;
            lineStart = j + 1;
          }
        i = stop - 1;
      }
    } else if (char === '(') {
      if (++parentheses > limit) return at(i, 'parentheses');
    } else if (char === ')') {
      parentheses = Math.max(0, parentheses - 1);
    }
  }
  return null;
}

/** Index of the closing quote (a doubled one is an escaped quote), or the end; reports newlines inside. */
function skipQuoted(sql: string, from: number, close: string, onNewline: (index: number) => void): number {
  for (let i = from; i < sql.length; i++) {
    if (sql[i] === '\n') onNewline(i);
    else if (sql[i] === close) {
      if (sql[i + 1] === close && close !== ']') i++;
      else return i;
    }
  }
  return sql.length;
}
