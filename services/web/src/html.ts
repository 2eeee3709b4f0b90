// The one way this app writes HTML: a tagged template that escapes every interpolated value unless it is
// already Html (made by this tag or by `trustedHtml` for text produced by our own renderers). Arrays are
// joined, null/undefined/false render nothing. Nothing user-supplied reaches a page another way.

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | Value[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => ESCAPES[character]!);
}

function render(value: Value): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let index = 0; index < values.length; index += 1) out += render(values[index]!) + strings[index + 1]!;
  return new Html(out);
}

/** Markup this app produced itself (the SVG renderer escapes all text it draws). */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}
