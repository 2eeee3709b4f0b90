// Reads a data type as people and dumps write it (`varchar(255)`, `timestamp(3) with time zone`,
// `"int"`, `[nvarchar](50)`, `pg_catalog.int4`, `text[]`, `enum('a','b')`) into words, one parenthesised
// argument list and array brackets. Knows nothing about catalogs: `resolve.ts` gives the parts meaning.
// One pass over the text, so it is linear in the length of what was written.

export type TypeArgument =
  | { kind: 'integer'; value: number; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'word'; value: string };

export interface TypeWord {
  /** Lower case for bare words; as written for quoted identifiers. */
  value: string;
  quoted: boolean;
}

export interface WrittenType {
  words: TypeWord[];
  /** Arguments in parentheses, or null when the type has none. */
  args: TypeArgument[] | null;
  /** How many words come before the parentheses (`timestamp(3) with time zone`: 1). */
  argsPosition: number;
  /** True when the type ends in `[]`, `[n]` or the keyword `array`. */
  array: boolean;
}

export type TypeSyntaxResult = { ok: true; type: WrittenType } | { ok: false; message: string };

interface Options {
  /** MySQL reads backslash escapes and double quotes inside enum strings. */
  backslashEscapes: boolean;
}

const BARE_WORD = /[A-Za-z0-9_$]/;

class Reader {
  position = 0;
  constructor(readonly text: string) {}
  peek(): string {
    return this.text[this.position] ?? '';
  }
  atEnd(): boolean {
    return this.position >= this.text.length;
  }
  skipSpaces(): void {
    while (!this.atEnd() && /\s/.test(this.peek())) this.position++;
  }
}

/** Reads `open … close` (already at `open`), with a doubled `close` standing for itself. */
function readQuoted(reader: Reader, close: string, backslashEscapes: boolean): string | null {
  reader.position++;
  let value = '';
  while (!reader.atEnd()) {
    const char = reader.peek();
    reader.position++;
    if (backslashEscapes && char === '\\' && !reader.atEnd()) {
      value += reader.peek();
      reader.position++;
    } else if (char === close) {
      if (reader.peek() !== close) return value;
      value += close;
      reader.position++;
    } else value += char;
  }
  return null;
}

function readBareWord(reader: Reader): string {
  const start = reader.position;
  while (!reader.atEnd() && BARE_WORD.test(reader.peek())) reader.position++;
  return reader.text.slice(start, reader.position);
}

function readArgument(reader: Reader, options: Options): TypeArgument | null {
  reader.skipSpaces();
  const char = reader.peek();
  if (char === "'" || (options.backslashEscapes && char === '"')) {
    const value = readQuoted(reader, char, options.backslashEscapes);
    return value === null ? null : { kind: 'string', value };
  }
  const sign = char === '-' || char === '+' ? char : '';
  if (sign !== '') reader.position++;
  const word = readBareWord(reader);
  if (word === '') return null;
  if (/^\d+$/.test(word)) return { kind: 'integer', value: Number(sign + word), text: sign + word };
  return sign === '' ? { kind: 'word', value: word.toLowerCase() } : null;
}

function readArguments(reader: Reader, options: Options): TypeArgument[] | null {
  reader.position++;
  const args: TypeArgument[] = [];
  for (;;) {
    const arg = readArgument(reader, options);
    if (arg === null) return null;
    args.push(arg);
    reader.skipSpaces();
    const char = reader.peek();
    reader.position++;
    if (char === ')') return args;
    if (char !== ',') return null;
  }
}

/** `[]` or `[12]` at the reader: array dimensions rather than a bracket-quoted identifier. */
function readArrayDimension(reader: Reader): boolean {
  const match = /^\[\s*\d*\s*\]/.exec(reader.text.slice(reader.position, reader.position + 24));
  if (match === null) return false;
  reader.position += match[0].length;
  return true;
}

export function readWrittenType(text: string, options: Options): TypeSyntaxResult {
  const reader = new Reader(text);
  const type: WrittenType = { words: [], args: null, argsPosition: 0, array: false };
  const fail = (what: string): TypeSyntaxResult => ({
    ok: false,
    message: `${what} at position ${reader.position}`,
  });
  for (reader.skipSpaces(); !reader.atEnd(); reader.skipSpaces()) {
    const char = reader.peek();
    if (type.array && char !== '[') return fail('unexpected text after the array brackets');
    if (char === '(') {
      if (type.args !== null) return fail('a second parenthesised list');
      const args = readArguments(reader, options);
      if (args === null) return fail('an unreadable parameter list');
      type.args = args;
      type.argsPosition = type.words.length;
    } else if (char === '[') {
      if (readArrayDimension(reader)) type.array = true;
      else {
        const value = readQuoted(reader, ']', false);
        if (value === null) return fail('an unclosed [identifier]');
        type.words.push({ value, quoted: true });
      }
    } else if (char === '"' || char === '`') {
      const value = readQuoted(reader, char, false);
      if (value === null) return fail(`an unclosed ${char}identifier${char}`);
      type.words.push({ value, quoted: true });
    } else if (char === '.') {
      // A schema qualifier (`pg_catalog.int4`, `sys.nvarchar`): built-in types are known by name alone.
      if (type.words.length !== 1 || type.args !== null) return fail('an unexpected "."');
      type.words = [];
      reader.position++;
    } else if (BARE_WORD.test(char)) {
      type.words.push({ value: readBareWord(reader).toLowerCase(), quoted: false });
    } else return fail(`an unexpected "${char}"`);
  }
  const last = type.words.at(-1);
  if (last !== undefined && !last.quoted && last.value === 'array' && type.words.length > 1) {
    type.words.pop();
    type.array = true;
  }
  return { ok: true, type };
}
