// The figure of a read-only view's drawing, and what the page says when busy tables are drawn again in it
// (packages/diagram-svg, hub-copies.ts): which tables and how often, with the way to draw every table once
// (`?copies=off`) and back. The diagram page, a version's page and a share link's page show the note; the
// embed views only the drawing.
import { type Html, html, trustedHtml } from '../html';

/** Whether the request asks for every table once (`?copies=off`). */
export function wantsCopies(query: Record<string, unknown>): boolean {
  return query.copies !== 'off';
}

/**
 * The drawing (already escaped SVG from the renderer) in the page's figure; with `toggle` (the page's own
 * path), the note about copies above it.
 */
export function drawingFigure(svg: string, view: { copies: boolean; toggle?: string }): Html {
  // The renderer escapes every text it draws (names, comments, notes) and emits no script.
  const figure = html`<figure class="diagram" id="diagram"${trustedHtml(view.copies ? '' : ' data-copies="off"')}>${trustedHtml(svg)}</figure>`;
  return view.toggle === undefined ? figure : html`${copiesNote(svg, view.copies, view.toggle)}${figure}`;
}

/**
 * What the page says when busy tables are drawn again (packages/diagram-svg, hub-copies.ts), with the way
 * to draw every table once, and back. Nothing for a drawing without copies that has none to turn off.
 */
export function copiesNote(svg: string, copies: boolean, href: string): Html | string {
  if (!copies)
    return html`<p class="copies-note muted" id="copies-note">Every table is drawn once. <a href="${href}">Draw busy tables again beside the tables that reference them</a></p>`;
  const drawn = new Map<string, number>();
  for (const match of svg.matchAll(/ data-table-copy="([^"]*)"/g)) {
    const name = unescapeAttribute(match[1] as string);
    drawn.set(name, (drawn.get(name) ?? 0) + 1);
  }
  if (drawn.size === 0) return '';
  const listed = [...drawn].map(([name, count]) => `${name} (${count} ${count === 1 ? 'copy' : 'copies'})`);
  return html`<p class="copies-note muted" id="copies-note">Busy tables are drawn again, dashed and marked “copy”, beside the far tables that reference them: ${listed.join(', ')}. <a href="${href}?copies=off">Draw every table once</a></p>`;
}

/** The text of an attribute value escapeXml wrote. */
function unescapeAttribute(value: string): string {
  return value.replace(/&(lt|gt|quot|#39|apos|amp);/g, (_entity, name: string) =>
    name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : name === 'amp' ? '&' : "'",
  );
}
