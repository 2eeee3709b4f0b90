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

/** Free text: line breaks become a visible `\n`, Markdown punctuation is backslash-escaped. */
export function escapeText(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return text;
  return escapeUnderscores(text.replace(MARKDOWN_SPECIAL, '\\$&')).replace(LINE_BREAK, '\\n');
}

/** A name: like free text, and the rendering's own separators are escaped too. */
export function escapeName(name: string): string {
  if (!NAME_NEEDS_ESCAPING.test(name)) return name;
  return escapeText(name).replace(NAME_SEPARATORS, '\\$&');
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
