// The only way document text reaches the SVG: every value is escaped here, and characters XML 1.0 cannot
// carry at all (C0 controls other than tab and line breaks, lone surrogates, U+FFFE/U+FFFF) become U+FFFD,
// because an escaped form of them would still make the document ill-formed.

const MARKUP = /[&<>"']/g;
const NOT_XML_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Whether a value needs any rewriting at all: most names and every number-like value do not. */
const NEEDS_REWRITE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the characters XML forbids is the point
  /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Text safe inside an element and inside a double- or single-quoted attribute value. */
export function escapeXml(value: string): string {
  if (!NEEDS_REWRITE.test(value)) return value;
  return value.replace(NOT_XML_CHARACTER, '\uFFFD').replace(MARKUP, (character) => ENTITIES[character]!);
}

/** A string from a document field, whatever it turned out to be at run time. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

/** A finite number from a document field (0 otherwise). */
export function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A coordinate written with at most two decimals and never as `-0`, so equal input gives equal text. */
export function formatNumber(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? '0' : String(rounded);
}

/**
 * An element's attributes. Names are literals of this package (the record's keys are typed by callers);
 * every value, number or text, is escaped.
 */
export function attributes(values: Record<string, string | number | undefined>): string {
  let out = '';
  for (const name in values) {
    const value = values[name];
    if (value === undefined) continue;
    out += ` ${name}="${typeof value === 'number' ? formatNumber(value) : escapeXml(value)}"`;
  }
  return out;
}

/** `<name …/>`, or `<name …>children</name>` when there are children (already rendered markup). */
export function element(
  name: string,
  values: Record<string, string | number | undefined>,
  children?: string,
): string {
  const open = `<${name}${attributes(values)}`;
  return children === undefined || children === '' ? `${open}/>` : `${open}>${children}</${name}>`;
}

/** `<title>` with escaped text: the tooltip of its parent element and its accessible name. */
export function titleElement(text: string): string {
  return `<title>${escapeXml(text)}</title>`;
}
