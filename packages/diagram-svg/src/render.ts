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
import { type DiagramHighlight, emptyHighlight } from './highlight';
import { FONT_SANS, INK, INK_MUTED } from './palette';
import { RelationshipEndpoints } from './relationship-endpoints';
import { renderGroup } from './render-group';
import { renderNote } from './render-note';
import { renderRelationship } from './render-relationship';
import { renderTable } from './render-table';
import { routeAll } from './relationship-route';
import { fitTableBoxes, tableBox } from './table-geometry';
import { attributes, element, escapeXml, formatNumber, numberOf, textOf } from './xml';

export interface RenderOptions {
  highlight?: DiagramHighlight;
  /** Accessible title of the SVG (its <title>); "Diagram with N tables" by default. */
  title?: string;
}

const MARGIN = 24;
const EMPTY_WIDTH = 480;
const EMPTY_HEIGHT = 120;

/** A complete, standalone <svg> element string (viewBox fitted to content, width/height 100%). */
export function renderDiagramSvg(document: DiagramDocument, options: RenderOptions = {}): string {
  const highlight = options.highlight ?? emptyHighlight();
  const tables = Array.isArray(document.tables) ? document.tables : [];
  const relationships = Array.isArray(document.relationships) ? document.relationships : [];
  const groups = Array.isArray(document.groups) ? document.groups : [];
  const notes = Array.isArray(document.sticky_notes) ? document.sticky_notes : [];
  const bounds = new Bounds();
  fitTableBoxes(tables);

  // Each layer's parts are joined once (see renderTable for why).
  const groupLayer: string[] = [];
  for (const group of groupsOutermostFirst(groups))
    groupLayer.push(renderGroup(group, highlight.groups.get(group.uuid), bounds));

  const endpoints = new RelationshipEndpoints({ ...document, tables }, highlight);
  const resolved = relationships
    .map((relationship) => endpoints.resolve(relationship))
    .filter((link) => link !== null);
  const routes = routeAll(resolved, {
    tables: tables.map(tableBox),
    others: [...notes.map((note) => sizedBox(note, 80, 40)), ...groups.map(groupTitleBar)],
  });
  const relationshipLayer = resolved.map((link, at) => renderRelationship(link, routes[at]!, bounds));

  const foreignKeys = foreignKeyColumns(relationships);
  const noForeignKeys = new Set<string>();
  const tableLayer: string[] = [];
  for (const table of tables)
    tableLayer.push(
      renderTable(
        table,
        { highlight, foreignKeyColumns: foreignKeys.get(textOf(table.name)) ?? noForeignKeys },
        bounds,
      ),
    );

  const noteLayer: string[] = [];
  const groupNames = new Map(groups.map((group) => [group.uuid, textOf(group.name)]));
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
  const content =
    layer('dss-groups', groupLayer) +
    layer('dss-relationships', relationshipLayer) +
    layer('dss-tables', tableLayer, { 'font-size': 12 }) +
    layer('dss-notes', noteLayer);
  return svgElement(title, bounds, bounds.isEmpty ? emptyMessage() : content);
}

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

/** The strip of a group frame that holds its name: lines keep off the label. */
function groupTitleBar(group: Group) {
  const frame = sizedBox(group, 40, 40);
  return { ...frame, height: Math.min(frame.height, 34) };
}

function svgElement(title: string, bounds: Bounds, content: string): string {
  const viewBox = bounds.isEmpty
    ? `0 0 ${EMPTY_WIDTH} ${EMPTY_HEIGHT}`
    : [
        bounds.minX - MARGIN,
        bounds.minY - MARGIN,
        bounds.maxX - bounds.minX + 2 * MARGIN,
        bounds.maxY - bounds.minY + 2 * MARGIN,
      ]
        .map(formatNumber)
        .join(' ');
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
