// Draws a full diagram document as one standalone SVG element: groups behind, then relationship lines,
// tables, and sticky notes on top. Output depends only on the document and the options (no clocks or
// randomness; the only uuids are the relationships' own, in the markup contract), so equal input gives
// byte-equal SVG.
//
// Markup contract (stable; tools and our tests measure drawings through it): every table is one
// `<g class="dss-table" data-table="<name>">` holding its box (`rect.dss-box`); every relationship is one
// `<g class="dss-relationship" data-relationship="<uuid>" data-source-table="<name>"
// data-target-table="<name>">` whose `path` children draw the line (`path.dss-line`) and its end markers.
//
// Safety: document text only ever reaches the output through `escapeXml` (xml.ts); element and attribute
// names are literals of this package; colours are used only when they are strict hex values; there are no
// links, scripts, foreignObject, style elements or style attributes, so the SVG works under a CSP with
// `style-src 'self'` (presentation attributes, classes styled by `diagramCss`).
import type { DiagramDocument, Group, Relationship } from '@dss/schema';
import { Bounds } from './bounds';
import { type DiagramHighlight, emptyHighlight, isEmptyHighlight } from './highlight';
import { FONT_SANS, INK, INK_MUTED } from './palette';
import { type HubCopy, withHubCopies } from './hub-copies';
import { groupLabelBox, renderGroup } from './render-group';
import { renderNote } from './render-note';
import { renderRelationship } from './render-relationship';
import { renderTable } from './render-table';
import { routeDrawing } from './route-drawing';
import type { RouteMemory } from './routing/route-memory';

// The editor's bundle takes this module as @dss/diagram-svg: what it uses of the package is exported here.
export { RouteMemory, type RouteSeed } from './routing/route-memory';
export { MarkupCache } from './markup-cache';
export { makeRoomForLines } from './line-room';
import type { MarkupCache } from './markup-cache';
import { fitTableBoxes, tableBox } from './table-geometry';
import { attributes, element, escapeXml, formatNumber, numberOf, textOf } from './xml';

export interface RenderOptions {
  highlight?: DiagramHighlight;
  /** Accessible title of the SVG (its <title>); "Diagram with N tables" by default. */
  title?: string;
  /**
   * The editor's previous routing (see RouteMemory): lines an edit did not touch keep their paths, so only
   * the edited tables' lines and the lines their new boxes stand on are routed again.
   */
  routeMemory?: RouteMemory;
  /**
   * The previous drawings' parts (see MarkupCache): a table or relationship record drawn before, in the
   * same box and context (route and ends), gives the same markup without being drawn again. Only for
   * documents never changed in place.
   */
  markupCache?: MarkupCache;
  /**
   * Draw busy tables again beside far groups of the tables that reference them (hub-copies.ts): for the
   * read-only views. Ignored with a highlight, groups or sticky notes.
   */
  hubCopies?: boolean;
}

/** One keyed part of a layer: a table (by name) or a relationship (by uuid) and its markup. */
export interface DrawnPart {
  key: string;
  markup: string;
}

/**
 * A drawing in parts, so that a page can patch the parts that changed (the editor after an edit) instead of
 * replacing the whole SVG; `svgOfParts` joins them into exactly what renderDiagramSvg returns.
 */
export interface DiagramParts {
  title: string;
  viewBox: string;
  empty: boolean;
  groups: string[];
  relationships: DrawnPart[];
  tables: DrawnPart[];
  notes: string[];
}

const MARGIN = 24;
const EMPTY_WIDTH = 480;
const EMPTY_HEIGHT = 120;

/** A complete, standalone <svg> element string (viewBox fitted to content, width/height 100%). */
export function renderDiagramSvg(document: DiagramDocument, options: RenderOptions = {}): string {
  return svgOfParts(renderDiagramParts(document, options));
}

/** The drawing's layers' contents, in drawing order (see DiagramParts). */
export function renderDiagramParts(document: DiagramDocument, options: RenderOptions = {}): DiagramParts {
  const highlight = options.highlight ?? emptyHighlight();
  const tables = Array.isArray(document.tables) ? document.tables : [];
  const relationships = Array.isArray(document.relationships) ? document.relationships : [];
  const groups = Array.isArray(document.groups) ? document.groups : [];
  const notes = Array.isArray(document.sticky_notes) ? document.sticky_notes : [];
  const bounds = new Bounds();
  const markupCache = options.markupCache;
  fitTableBoxes(tables, markupCache);
  const copied =
    options.hubCopies === true && isEmptyHighlight(highlight)
      ? withHubCopies({ ...document, tables, relationships, groups, sticky_notes: notes })
      : null;
  const copies = copied?.copies ?? new Map<string, HubCopy>();
  const drawnTables = copied?.tables ?? tables;

  // Each layer's parts are joined once (see renderTable for why).
  const groupLayer: string[] = [];
  for (const group of groupsOutermostFirst(groups))
    groupLayer.push(renderGroup(group, highlight.groups.get(group.uuid), bounds));

  const { resolved, routes } = routeDrawing(
    { ...document, tables: drawnTables, relationships: copied?.relationships ?? relationships },
    {
      highlight,
      others: [...notes.map((note) => sizedBox(note, 80, 40)), ...groups.map(groupLabelBox)],
      ...(options.routeMemory ? { routeMemory: options.routeMemory } : {}),
    },
  );
  // A highlight marks records by uuid: kept markup is only for drawings without one.
  const keep =
    markupCache !== undefined && isEmptyHighlight(highlight) && copied === null ? markupCache : null;
  const relationshipLayer = resolved.map((link, at) => {
    const route = routes[at]!;
    const copy = copies.get(textOf(link.relationship.target_table));
    const draw = () =>
      copy === undefined
        ? renderRelationship(link, route, bounds)
        : renderRelationship(
            { ...link, relationship: { ...link.relationship, target_table: copy.of } },
            route,
            bounds,
            copy,
          );
    if (keep === null) return { key: textOf(link.relationship.uuid), markup: draw() };
    let key = `${route.sourceSide},${route.targetSide},${link.sourceNullable}`;
    for (const [x, y] of route.points) {
      bounds.include(x - 8, y - 8, x + 8, y + 8);
      key += `;${x},${y}`;
    }
    return { key: textOf(link.relationship.uuid), markup: keep.relationship(link.relationship, key, draw) };
  });

  const foreignKeys = foreignKeyColumns(relationships);
  const noForeignKeys = new Set<string>();
  const groupNames = new Map(groups.map((group) => [group.uuid, textOf(group.name)]));
  const tableLayer: DrawnPart[] = [];
  for (const table of drawnTables) {
    const copy = copies.get(textOf(table.name));
    const context = {
      highlight,
      foreignKeyColumns: foreignKeys.get(textOf(table.name)) ?? noForeignKeys,
      group: table.parent_uuid === null ? null : (groupNames.get(table.parent_uuid) ?? null),
      ...(copy === undefined ? {} : { copy }),
    };
    let markup: string;
    if (keep === null) markup = renderTable(table, context, bounds);
    else {
      const box = tableBox(table);
      bounds.include(box.left, box.top, box.left + box.width, box.top + box.height);
      const key = `${box.left},${box.top},${box.width},${box.height}\u0000${context.group ?? ''}\u0000${[...context.foreignKeyColumns].join('\u0000')}`;
      markup = keep.table(table, key, () => renderTable(table, context, bounds));
    }
    tableLayer.push({
      key: copy === undefined ? textOf(table.name) : `${copy.of}\u0000${copy.index}`,
      markup,
    });
  }

  const noteLayer: string[] = [];
  for (const note of notes)
    noteLayer.push(
      renderNote(
        note,
        highlight.sticky_notes.get(note.uuid),
        bounds,
        note.parent_uuid === null ? null : (groupNames.get(note.parent_uuid) ?? null),
      ),
    );

  const title = options.title ?? `Diagram with ${tables.length} ${tables.length === 1 ? 'table' : 'tables'}`;
  return {
    title,
    viewBox: viewBoxOf(bounds),
    empty: bounds.isEmpty,
    groups: groupLayer,
    relationships: relationshipLayer,
    tables: tableLayer,
    notes: noteLayer,
  };
}

/** The whole <svg> element of a drawing's parts (renderDiagramSvg's output). */
export function svgOfParts(parts: DiagramParts): string {
  const content =
    layer('dss-groups', parts.groups) +
    layer(
      'dss-relationships',
      parts.relationships.map((part) => part.markup),
    ) +
    layer(
      'dss-tables',
      parts.tables.map((part) => part.markup),
      TABLE_LAYER_ATTRIBUTES,
    ) +
    layer('dss-notes', parts.notes);
  return svgElement(parts.title, parts.viewBox, parts.empty ? emptyMessage() : content);
}

/** The tables' layer sets the font size its text inherits. */
export const TABLE_LAYER_ATTRIBUTES = { 'font-size': 12 };

/** A note's (or group's) box as drawn, for routing. */
function sizedBox(
  item: { left?: unknown; top?: unknown; width?: unknown; height?: unknown },
  minWidth: number,
  minHeight: number,
) {
  return {
    left: numberOf(item.left),
    top: numberOf(item.top),
    width: Math.max(minWidth, numberOf(item.width)),
    height: Math.max(minHeight, numberOf(item.height)),
  };
}

function viewBoxOf(bounds: Bounds): string {
  return bounds.isEmpty
    ? `0 0 ${EMPTY_WIDTH} ${EMPTY_HEIGHT}`
    : [
        bounds.minX - MARGIN,
        bounds.minY - MARGIN,
        bounds.maxX - bounds.minX + 2 * MARGIN,
        bounds.maxY - bounds.minY + 2 * MARGIN,
      ]
        .map(formatNumber)
        .join(' ');
}

function svgElement(title: string, viewBox: string, content: string): string {
  const root = attributes({
    xmlns: 'http://www.w3.org/2000/svg',
    class: 'dss-diagram',
    viewBox,
    width: '100%',
    height: '100%',
    role: 'img',
    'font-family': FONT_SANS,
    fill: INK,
  });
  return `<svg${root}><title>${escapeXml(title)}</title>${content}</svg>`;
}

function layer(className: string, parts: string[], inherited: Record<string, number> = {}): string {
  return parts.length === 0 ? '' : element('g', { class: className, ...inherited }, parts.join(''));
}

function emptyMessage(): string {
  return element(
    'text',
    {
      class: 'dss-empty',
      x: EMPTY_WIDTH / 2,
      y: EMPTY_HEIGHT / 2,
      'text-anchor': 'middle',
      'font-size': 14,
      fill: INK_MUTED,
    },
    'This diagram has no tables yet',
  );
}

/** Table name → names of its columns on the foreign-key side of a relationship. */
function foreignKeyColumns(relationships: Relationship[]): Map<string, Set<string>> {
  const byTable = new Map<string, Set<string>>();
  for (const relationship of relationships) {
    const table = textOf(relationship.source_table);
    const columns = byTable.get(table) ?? new Set<string>();
    columns.add(textOf(relationship.source_column));
    byTable.set(table, columns);
  }
  return byTable;
}

/** Groups in drawing order: a group before the groups nested in it, otherwise in document order. */
function groupsOutermostFirst(groups: Group[]): Group[] {
  const byUuid = new Map(groups.map((group) => [group.uuid, group]));
  const depthOf = (group: Group): number => {
    let depth = 0;
    const seen = new Set<string>([group.uuid]);
    for (
      let parent = byUuid.get(group.parent_uuid ?? '');
      parent !== undefined;
      parent = byUuid.get(parent.parent_uuid ?? '')
    ) {
      if (seen.has(parent.uuid)) break; // a cycle in a malformed document
      seen.add(parent.uuid);
      depth++;
    }
    return depth;
  };
  return groups
    .map((group, order) => ({ group, order, depth: depthOf(group) }))
    .sort((a, b) => a.depth - b.depth || a.order - b.order)
    .map((entry) => entry.group);
}
