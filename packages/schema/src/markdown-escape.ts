// Escaping of user text (names, comments, defaults) inside the Markdown rendering, so no value can end a
// line, open a code span, a link, a table cell, emphasis or HTML, or be mistaken for a separator.

const LINE_BREAK = /\r\n|\r|\n/g;
/** ASCII punctuation that means something in Markdown anywhere in a line. */
const MARKDOWN_SPECIAL = /[\\`*[\]<>|~#&]/g;
/** Separators of the rendering itself (lists, `table.column`, type arguments), escaped in names only. */
const NAME_SEPARATORS = /[,:.()]/g;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
/** Anything the escapes would change; most names and comments contain none of it. */
const NEEDS_ESCAPING = /[\\`*[\]<>|~#&_\r\n]/;
const NAME_NEEDS_ESCAPING = /[\\`*[\]<>|~#&_\r\n,:.()]/;

/** What the escapes change besides underscores, in free text and in names. */
const TEXT_SPECIAL = /[\\`*[\]<>|~#&\r\n]/;
const NAME_SPECIAL = /[\\`*[\]<>|~#&\r\n,:.()]/;

/** Free text: line breaks become a visible `\n`, Markdown punctuation is backslash-escaped. */
export function escapeText(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return text;
  // Most names and comments with an underscore have it inside a word (`created_at`): nothing to escape.
  if (!TEXT_SPECIAL.test(text) && underscoresAreIntraword(text)) return text;
  return escapeUnderscores(text.replace(MARKDOWN_SPECIAL, '\\$&')).replace(LINE_BREAK, '\\n');
}

/** A name: like free text, and the rendering's own separators are escaped too. */
export function escapeName(name: string): string {
  if (!NAME_NEEDS_ESCAPING.test(name)) return name;
  if (!NAME_SPECIAL.test(name) && underscoresAreIntraword(name)) return name;
  return escapeText(name).replace(NAME_SEPARATORS, '\\$&');
}

/** Whether a UTF-16 unit (or '' past either end) is a letter or a number, as WORD_CHARACTER decides. */
function isWordCharacter(unit: string): boolean {
  if (unit === '') return false;
  const code = unit.charCodeAt(0);
  if (code < 0x80)
    return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  return WORD_CHARACTER.test(unit);
}

/** True when every `_` has a word character on both sides, so `escapeUnderscores` would keep them all. */
function underscoresAreIntraword(text: string): boolean {
  for (let at = text.indexOf('_'); at !== -1; at = text.indexOf('_', at + 1))
    if (!isWordCharacter(text[at - 1] ?? '') || !isWordCharacter(text[at + 1] ?? '')) return false;
  return true;
}

/**
 * `_` starts emphasis only at a word boundary, so `created_at` stays readable and `_id_` is escaped.
 * (Runs after the other escapes; an escaped character counts as a boundary, which only adds escapes.)
 */
function escapeUnderscores(text: string): string {
  return text.replace(/_/g, (_, offset: number) => {
    const intraword =
      WORD_CHARACTER.test(text[offset - 1] ?? '') && WORD_CHARACTER.test(text[offset + 1] ?? '');
    return intraword ? '_' : '\\_';
  });
}
