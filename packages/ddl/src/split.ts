// A dialect-aware statement splitter: finds statement boundaries while stepping over string literals,
// quoted identifiers, comments and PostgreSQL dollar quoting, so one bad statement can be reported (or
// skipped) without losing the rest of the script. It does not parse SQL; each piece goes to a real parser.
//
// - pgsql: `;` ends a statement; `$tag$…$tag$` bodies, `E'…'` escapes, nested `/* */`; psql meta-commands
//   (a line starting with `\`) are statements of their own; the data rows after `COPY … FROM stdin;` up to
//   the `\.` line are stepped over.
// - mysql: `;` or the current `DELIMITER`; backslash escapes in strings; `#` comments; `/*!NNNNN …*/` and
//   `/*M!NNNNN …*/` executable comments keep their content (the markers are blanked); other comments are
//   blanked.
// - sqlsrv: a line holding only `GO` (any case, optional count) ends a batch; `;` does not split here
//   (batches are kept whole because procedures and triggers span `;`; the SQL Server reader cuts the
//   batches it reads). `[bracket]` identifiers.
import type { Driver } from '@dss/schema';

export interface Piece {
  /** Statement text with comments blanked (same length as the source slice, so offsets stay valid). */
  text: string;
  /** Offset of the piece's first character in the whole script. */
  offset: number;
}

/** Line (1-based) and column (1-based) of an offset in a text. */
export class LineMap {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }
  at(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.starts[low] ?? 0) + 1 };
  }
}

const COPY_FROM_STDIN = /^\s*copy\b[\s\S]*\bfrom\s+stdin\b/i;

function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}

/** Splits a script into statements. Comments become spaces (newlines kept); empty pieces are dropped. */
export function splitStatements(driver: Driver, sql: string): Piece[] {
  const pieces: Piece[] = [];
  let out = '';
  let start = 0;
  let delimiter = ';';
  let i = 0;
  const n = sql.length;
  const flush = (next: number) => {
    if (out.trim() !== '') pieces.push({ text: out, offset: start });
    out = '';
    start = next;
  };
  const atLineStart = (pos: number) => {
    let j = pos - 1;
    while (j >= 0 && (sql[j] === ' ' || sql[j] === '\t')) j--;
    return j < 0 || sql[j] === '\n';
  };
  const lineEnd = (pos: number) => {
    const e = sql.indexOf('\n', pos);
    return e < 0 ? n : e;
  };
  while (i < n) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    // Line-oriented commands first.
    if (atLineStart(i) && out.trim() === '') {
      const end = lineEnd(i);
      const line = sql.slice(i, end);
      if (driver === 'pgsql' && c === '\\') {
        out += line;
        flush(end);
        i = end;
        continue;
      }
      if (driver === 'mysql') {
        const m = /^delimiter[ \t]+(\S+)/i.exec(line);
        if (m) {
          delimiter = m[1] as string;
          out = '';
          start = end;
          i = end;
          continue;
        }
      }
    }
    if (driver === 'sqlsrv' && (c === 'g' || c === 'G') && atLineStart(i)) {
      const end = lineEnd(i);
      if (/^go(?:[ \t]+\d+)?[ \t]*;?[ \t]*\r?$/i.test(sql.slice(i, end))) {
        flush(end);
        i = end;
        continue;
      }
    }
    // Comments.
    if (c === '-' && next === '-' && (driver !== 'mysql' || /[\s]/.test(sql[i + 2] ?? ' '))) {
      const end = lineEnd(i);
      out += blank(sql.slice(i, end));
      i = end;
      continue;
    }
    if (driver === 'mysql' && c === '#') {
      const end = lineEnd(i);
      out += blank(sql.slice(i, end));
      i = end;
      continue;
    }
    if (c === '/' && next === '*') {
      if (driver === 'mysql') {
        const m = /^\/\*(M?)!(\d*)/.exec(sql.slice(i, i + 12));
        if (m) {
          // Executable comment: keep the body, blank the markers. MariaDB's `/*M!999999\- …*/` sandbox
          // line has a body that is not SQL; it is blanked whole.
          const close = sql.indexOf('*/', i + 2);
          const end = close < 0 ? n : close + 2;
          const body = sql.slice(i + m[0].length, close < 0 ? n : close);
          if (body.startsWith('\\-')) out += blank(sql.slice(i, end));
          else out += blank(m[0]) + body + (close < 0 ? '' : '  ');
          // The body is re-scanned for strings and delimiters as part of `out` is not needed: version
          // comments in dumps hold whole clauses or statements ending at the same `;`.
          i = end;
          continue;
        }
      }
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (sql[j] === '*' && sql[j + 1] === '/') {
          depth--;
          j += 2;
        } else if (driver === 'pgsql' && sql[j] === '/' && sql[j + 1] === '*') {
          depth++;
          j += 2;
        } else j++;
      }
      out += blank(sql.slice(i, j));
      i = j;
      continue;
    }
    // Quoted text.
    if (c === "'" || c === '"' || c === '`' || (c === '[' && driver === 'sqlsrv')) {
      const close = c === '[' ? ']' : c;
      const backslash =
        (driver === 'mysql' && c !== '`') ||
        (driver === 'pgsql' && c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !/\w/.test(sql[i - 2] ?? ''));
      let j = i + 1;
      while (j < n) {
        const d = sql[j];
        if (backslash && d === '\\') j += 2;
        else if (d === close) {
          if (sql[j + 1] === close) j += 2;
          else break;
        } else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (driver === 'pgsql' && c === '$') {
      const m = /^\$([A-Za-z_][A-Za-z_0-9]*)?\$/.exec(sql.slice(i, i + 64));
      if (m && !/[\w$]/.test(sql[i - 1] ?? ' ')) {
        const tag = m[0];
        const close = sql.indexOf(tag, i + tag.length);
        const end = close < 0 ? n : close + tag.length;
        out += sql.slice(i, end);
        i = end;
        continue;
      }
    }
    if (driver !== 'sqlsrv' && sql.startsWith(delimiter, i)) {
      const statement = out;
      flush(i + delimiter.length);
      i += delimiter.length;
      // pg_dump's `COPY … FROM stdin;` is followed by data rows up to a line holding only `\.`: the rows
      // belong to the COPY (skipped with it), they are not SQL.
      if (driver === 'pgsql' && COPY_FROM_STDIN.test(statement)) {
        const terminator = /^\\\.[ \t]*\r?$/m.exec(sql.slice(i));
        i = terminator ? i + terminator.index + terminator[0].length : n;
        start = i;
      }
      continue;
    }
    out += c;
    i++;
  }
  flush(n);
  return pieces;
}
