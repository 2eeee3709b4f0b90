// Clause-level recovery for a CREATE TABLE or ALTER TABLE the parser rejects: instead of losing the whole
// statement (and with it every column of the table), the part the parser stopped at is blanked and the
// statement parsed again, a bounded number of times. What is blanked, from the narrowest:
//
// - inside a column definition, after its name and type: the word the parser stopped at, with its
//   parenthesised argument or `= value` (an unknown column attribute drops the attribute, not the column);
// - at a column's type: the type becomes `text`, padded (the column is kept, the warning names the type);
// - at the start of a column or table constraint: that element of the list;
// - after the column list: the table options from there on;
// - in an ALTER TABLE with several sub-commands: the sub-command.
//
// Every repair keeps the statement's length (blanks are spaces, newlines kept), so the parser's later error
// offsets, and the warnings' lines and columns, still point into the script. Pure text work: no parser here.
import type { DdlWarningCode } from './result';

export interface Repair {
  text: string;
  code: DdlWarningCode;
  message: string;
  /** Offset in the statement of what was dropped. */
  offset: number;
}

/** What a parse attempt answers: a tree, or where (offset in the text) and why it stopped. */
export type Attempt<T> = { ok: true; tree: T } | { ok: false; offset: number | null; message: string };

/** Repairs made before the parse succeeded, or the first failure when no repair helped. */
export type Recovered<T> =
  | { ok: true; tree: T; repairs: Repair[] }
  | { ok: false; offset: number | null; message: string };

/** Repairs tried per statement; each blanks at least one character, so this also bounds the work. */
export const MAX_REPAIRS = 12;

interface Span {
  start: number;
  end: number;
}

function blankRange(text: string, start: number, end: number): string {
  return text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, ' ') + text.slice(end);
}

/** The end of a quoted run starting at `i` (`'…'`, `"…"`, `` `…` ``, `[…]`), doubled quotes and `\` escapes. */
function quotedEnd(text: string, i: number, backslash: boolean): number {
  const open = text[i] as string;
  const close = open === '[' ? ']' : open;
  let j = i + 1;
  while (j < text.length) {
    const c = text[j];
    if (backslash && c === '\\' && open !== '[' && open !== '`') j += 2;
    else if (c === close) {
      if (text[j + 1] === close) j += 2;
      else return j + 1;
    } else j++;
  }
  return text.length;
}

function isQuote(c: string, brackets: boolean): boolean {
  return c === "'" || c === '"' || c === '`' || (brackets && c === '[');
}

/** Tokens of `text` between `from` and `to`: words, quoted runs, parenthesised groups (one token), signs. */
function tokens(text: string, from: number, to: number, brackets: boolean): Span[] {
  const out: Span[] = [];
  let i = from;
  while (i < to) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    let end: number;
    if (isQuote(c, brackets)) {
      end = quotedEnd(text, i, c === "'");
      // N'…', E'…', _utf8'…' prefixes belong to the literal: join a word glued to a quote.
    } else if (c === '(') end = groupEnd(text, i, brackets);
    else if (/[\w$#@.]/.test(c)) {
      end = i + 1;
      while (end < to && /[\w$#@.]/.test(text[end] as string)) end++;
      if (isQuote(text[end] ?? '', false) && text[end] === "'") end = quotedEnd(text, end, true);
    } else end = i + 1;
    out.push({ start: i, end: Math.min(end, to) });
    i = end;
  }
  return out;
}

/** The offset just after the parenthesis that closes the one at `open`. */
function groupEnd(text: string, open: number, brackets: boolean): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const c = text[i] as string;
    if (isQuote(c, brackets)) {
      i = quotedEnd(text, i, c === "'");
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return text.length;
}

/** Offsets of the commas at depth 0 between `from` and `to`. */
function topLevelCommas(text: string, from: number, to: number, brackets: boolean): number[] {
  const commas: number[] = [];
  let i = from;
  while (i < to) {
    const c = text[i] as string;
    if (isQuote(c, brackets)) i = quotedEnd(text, i, c === "'");
    else if (c === '(') i = groupEnd(text, i, brackets);
    else {
      if (c === ',') commas.push(i);
      i++;
    }
  }
  return commas;
}

function elementsOf(text: string, from: number, to: number, brackets: boolean): Span[] {
  const elements: Span[] = [];
  let start = from;
  for (const comma of topLevelCommas(text, from, to, brackets)) {
    elements.push({ start, end: comma });
    start = comma + 1;
  }
  elements.push({ start, end: to });
  return elements.filter((element) => text.slice(element.start, element.end).trim() !== '');
}

function shown(text: string, span: Span): string {
  const flat = text.slice(span.start, span.end).replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

const CONSTRAINT_START =
  /^(?:constraint|primary|unique|foreign|key|index|check|fulltext|spatial|exclude|like|period|references)$/i;

/** Blanks `element` with the comma that separates it from its neighbour. */
function dropElement(text: string, elements: Span[], at: number): string {
  const element = elements[at] as Span;
  if (elements.length === 1) return blankRange(text, element.start, element.end);
  // The comma before it, or for the first element the comma after it.
  if (at > 0) return blankRange(text, (elements[at - 1] as Span).end, element.end);
  return blankRange(text, element.start, (elements[1] as Span).start);
}

/** Repairs within one element (a column definition, a constraint, an ALTER sub-command). */
function repairElement(
  text: string,
  elements: Span[],
  at: number,
  offset: number,
  brackets: boolean,
  firstAttribute: number,
  what: string,
  columns: boolean,
): Repair {
  const element = elements[at] as Span;
  const parts = tokens(text, element.start, element.end, brackets);
  let index = parts.findIndex((token) => token.end > offset);
  const name = parts[0] ? text.slice(parts[0].start, parts[0].end) : '';
  const isColumn = columns && parts[0] !== undefined && !CONSTRAINT_START.test(name);
  if (index < 0) {
    // The parser stopped at the comma or parenthesis after the element: its last word is incomplete.
    index = parts.length - 1;
    if (parts.length <= firstAttribute)
      return {
        text: dropElement(text, elements, at),
        code: 'element_dropped',
        message: `${what} "${shown(text, element)}" could not be read; dropped`,
        offset: element.start,
      };
  }
  if (index >= firstAttribute && index > 0) {
    // An attribute: the word, and its argument (`(…)`, `= value`, a quoted string) when one follows.
    const token = parts[index] as Span;
    let end = token.end;
    const next = parts[index + 1];
    const nextText = next ? text.slice(next.start, next.end) : '';
    if (next && (nextText.startsWith('(') || nextText === '=' || /^[NnEeBbXx]?'/.test(nextText))) {
      end = next.end;
      const value = parts[index + 2];
      if (nextText === '=' && value) end = value.end;
    }
    return {
      text: blankRange(text, token.start, end),
      code: 'clause_dropped',
      message: `${what} ${isColumn ? `column ${name}` : `"${shown(text, element)}"`}: "${shown(text, { start: token.start, end })}" could not be read; dropped`,
      offset: token.start,
    };
  }
  if (index === 1 && isColumn && firstAttribute === 2) {
    // The column's type: kept as text (the length allows it), so the column is not lost.
    const token = parts[1] as Span;
    let end = token.end;
    const next = parts[2];
    if (next && text[next.start] === '(') end = next.end;
    if (end - token.start >= 4) {
      const written = shown(text, { start: token.start, end });
      return {
        text: `${text.slice(0, token.start)}text${' '.repeat(end - token.start - 4)}${text.slice(end)}`,
        code: 'clause_dropped',
        message: `${what} column ${name}: type "${written}" could not be read; imported as text`,
        offset: token.start,
      };
    }
  }
  return {
    text: dropElement(text, elements, at),
    code: 'element_dropped',
    message: `${what} "${shown(text, element)}" could not be read; dropped`,
    offset: element.start,
  };
}

const CREATE_TABLE =
  /^\s*create\s+(?:or\s+replace\s+)?(?:(?:global|local)\s+)?(?:(?:temp|temporary|unlogged)\s+)?table\b/i;
const ALTER_TABLE = /^\s*alter\s+table\s+(?:only\s+)?(?:if\s+exists\s+)?(?:only\s+)?/i;

/**
 * One repair of `text` where the parser stopped at `offset`, or null when there is nothing narrower to drop
 * than the statement itself. `brackets`: `[name]` quoting (SQL Server).
 */
export function repairStatement(text: string, offset: number, brackets: boolean): Repair | null {
  if (CREATE_TABLE.test(text)) {
    const open = findListOpen(text, brackets);
    if (open < 0 || offset <= open) return null;
    const close = groupEnd(text, open, brackets) - 1;
    const table = shown(text, { start: 0, end: open }).replace(CREATE_TABLE, '').trim();
    if (offset > close) {
      if (text.slice(offset).trim() === '') return null;
      const parts = tokens(text, close + 1, text.length, brackets);
      const from = parts.find((token) => token.end > offset)?.start ?? offset;
      return {
        text: blankRange(text, from, text.length),
        code: 'table_options_dropped',
        message: `table ${table}: options "${shown(text, { start: from, end: text.length })}" could not be read; dropped`,
        offset: from,
      };
    }
    const stray = strayComma(text, offset, open);
    if (stray >= 0)
      return {
        text: blankRange(text, stray, stray + 1),
        code: 'clause_dropped',
        message: `table ${table}: a stray comma was dropped`,
        offset: stray,
      };
    const elements = elementsOf(text, open + 1, close, brackets);
    let at = elements.findIndex((element) => offset < element.end);
    if (at < 0) at = elements.length - 1;
    const element = elements[at];
    if (!element) return null;
    // At the comma after an element: that element is unfinished.
    if (offset < element.start && at > 0) at--;
    return repairElement(text, elements, at, offset, brackets, 2, `table ${table}:`, true);
  }
  const alter = ALTER_TABLE.exec(text);
  if (alter) {
    const nameParts = tokens(text, alter[0].length, text.length, brackets);
    // The table name: a word or quoted run, possibly `schema . name`.
    let i = 0;
    while (nameParts[i + 1] && text.slice(nameParts[i + 1]!.start, nameParts[i + 1]!.end) === '.') i += 2;
    const nameEnd = nameParts[i]?.end ?? text.length;
    if (offset < nameEnd) return null;
    const elements = elementsOf(text, nameEnd, text.length, brackets);
    const at = elements.findIndex((element) => offset < element.end);
    const table = shown(text, { start: alter[0].length, end: nameEnd });
    if (at < 0) return null;
    // Within one sub-command: past `ADD CONSTRAINT name`, drop the word; else the whole sub-command.
    const repair = repairElement(text, elements, at, offset, brackets, 4, `ALTER TABLE ${table}:`, false);
    if (repair.code === 'element_dropped' && elements.length === 1) return null;
    return repair;
  }
  return null;
}

/**
 * A comma with nothing after it where the parser stopped: `(a int,,` (the second), `, )` (the trailing one),
 * `(,`. Its offset, or -1.
 */
function strayComma(text: string, offset: number, open: number): number {
  let before = offset - 1;
  while (before > open && /\s/.test(text[before] as string)) before--;
  const here = text[offset];
  if (here === ',' && (text[before] === ',' || before === open)) return offset;
  if (here === ')' && text[before] === ',') return before;
  return -1;
}

/** The parenthesis opening a CREATE TABLE's column list (the first at depth 0), or -1. */
function findListOpen(text: string, brackets: boolean): number {
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (isQuote(c, brackets)) i = quotedEnd(text, i, false);
    else if (c === '(') return i;
    else i++;
  }
  return -1;
}

/**
 * Parses `text` with `parse`; when it fails inside a CREATE/ALTER TABLE, repairs and parses again (at most
 * MAX_REPAIRS times). Answers the tree with the repairs that made it parse, or the first failure.
 */
export function parseWithRepairs<T>(
  text: string,
  parse: (text: string) => Attempt<T>,
  brackets: boolean,
  first?: Attempt<T>,
): Recovered<T> {
  const initial = first ?? parse(text);
  if (initial.ok) return { ok: true, tree: initial.tree, repairs: [] };
  const repairs: Repair[] = [];
  let current = text;
  let attempt: Attempt<T> = initial;
  for (let round = 0; round < MAX_REPAIRS && !attempt.ok; round++) {
    if (attempt.offset === null) break;
    const repair = repairStatement(current, attempt.offset, brackets);
    if (!repair || repair.text === current) break;
    repairs.push(repair);
    current = repair.text;
    attempt = parse(current);
  }
  if (attempt.ok) return { ok: true, tree: attempt.tree, repairs };
  return { ok: false, offset: initial.offset, message: initial.message };
}
