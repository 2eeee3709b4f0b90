// One relationship: the line between the two column rows, a crow's foot (many) or a bar (one) where it
// meets the foreign-key side, and a bar plus a second bar (exactly one) or a circle (zero or one, when the
// foreign-key column is nullable) where it meets the referenced side.
import type { Relationship } from '@dss/schema';
import type { Bounds } from './bounds';
import type { ChangeMark } from './highlight';
import type { HubCopy } from './hub-copies';
import { markClass } from './highlight';
import { MARK_COLORS, RELATIONSHIP_LINE, REMOVED_DASH, WHITE } from './palette';

/** The drawing's background (diagramCss's `svg.dss-diagram` fill). */
const HALO = '#f8fafc';
import type { Endpoint, Route } from './relationship-route';
import { element, formatNumber as n, textOf, titleElement } from './xml';

export interface ResolvedRelationship {
  relationship: Relationship;
  source: Endpoint;
  target: Endpoint;
  /** Whether the foreign-key column accepts null (then the referenced side is "zero or one"). */
  sourceNullable: boolean;
  mark: ChangeMark | undefined;
}

/** The drawn parts of a relationship for a route: the line, the end markers and the "zero or one" circle. */
export interface RelationshipShapes {
  line: string;
  ends: string;
  circle: { cx: number; cy: number } | null;
}

/**
 * The path data of a relationship along a route (the server's drawing and the browser's redrawing of a
 * line while a table is dragged both use it). `type` is the relationship's; `sourceNullable` whether the
 * foreign-key column accepts null.
 */
export function relationshipShapes(route: Route, type: unknown, sourceNullable: boolean): RelationshipShapes {
  const [sourceX, sourceY] = route.points[0]!;
  const [targetX, targetY] = route.points.at(-1)!;
  let ends =
    type === 'one-to-one'
      ? bar(sourceX, sourceY, route.sourceSide, 10)
      : crowsFoot(sourceX, sourceY, route.sourceSide);
  ends += bar(targetX, targetY, route.targetSide, 10);
  if (!sourceNullable) ends += bar(targetX, targetY, route.targetSide, 14);
  return {
    line: polyline(route),
    ends,
    circle: sourceNullable ? { cx: targetX + route.targetSide * 17, cy: targetY } : null,
  };
}

/** `copy`: the line ends on a copy of its target table (hub-copies.ts), not on the table itself. */
export function renderRelationship(
  resolved: ResolvedRelationship,
  route: Route,
  bounds: Bounds,
  copy?: HubCopy,
): string {
  const { relationship, mark } = resolved;
  for (const [x, y] of route.points) bounds.include(x - 8, y - 8, x + 8, y + 8);
  const stroke = mark === undefined ? RELATIONSHIP_LINE : MARK_COLORS[mark].strong;
  const shapes = relationshipShapes(route, relationship.type, resolved.sourceNullable);
  const circle =
    shapes.circle === null
      ? ''
      : element('circle', {
          class: 'dss-optional',
          cx: shapes.circle.cx,
          cy: shapes.circle.cy,
          r: 3.5,
          fill: WHITE,
          'stroke-width': 1.25,
        });

  const body =
    titleElement(describe(relationship)) +
    // A casing in the background's colour under the line: where a later line crosses an earlier one it cuts
    // a small gap into it, so a crossing reads as one line passing over another, not as a junction.
    element('path', {
      class: 'dss-halo',
      d: shapes.line,
      stroke: HALO,
      'stroke-width': 4,
      'stroke-linecap': 'butt',
    }) +
    element('path', {
      class: 'dss-line',
      d: shapes.line,
      'stroke-dasharray': mark === 'removed' ? REMOVED_DASH : undefined,
    }) +
    element('path', { class: 'dss-ends', d: shapes.ends }) +
    circle;
  // Stroke attributes on the group, inherited by its paths: thousands of relationships make it worth it.
  return element(
    'g',
    {
      class: `dss-relationship${markClass(mark)}`,
      'data-relationship': textOf(relationship.uuid),
      'data-source-table': textOf(relationship.source_table),
      'data-target-table': textOf(relationship.target_table),
      'data-target-copy': copy?.index,
      // Additions to the markup contract: what the page needs to redraw and describe a line by itself.
      'data-source-column': textOf(relationship.source_column),
      'data-target-column': textOf(relationship.target_column),
      'data-cardinality': textOf(relationship.type),
      fill: 'none',
      stroke,
      'stroke-width': mark === undefined ? 1.25 : 2,
      'stroke-linejoin': 'round',
    },
    body,
  );
}

function describe(relationship: Relationship): string {
  const source = `${textOf(relationship.source_table)}.${textOf(relationship.source_column)}`;
  const target = `${textOf(relationship.target_table)}.${textOf(relationship.target_column)}`;
  const actions = [
    relationship.on_delete ? `on delete ${textOf(relationship.on_delete)}` : '',
    relationship.on_update ? `on update ${textOf(relationship.on_update)}` : '',
  ].filter((part) => part !== '');
  const name = relationship.name ? `${textOf(relationship.name)}: ` : '';
  return `${name}${source} → ${target} (${textOf(relationship.type)}${actions.length > 0 ? `, ${actions.join(', ')}` : ''})`;
}

export function polyline(route: Pick<Route, 'points'>): string {
  return route.points.map(([x, y], at) => `${at === 0 ? 'M' : 'L'}${n(x)} ${n(y)}`).join('');
}

/** Three prongs meeting the table edge at (x, y); `side` is the direction away from the table. */
function crowsFoot(x: number, y: number, side: 1 | -1): string {
  const heel = x + side * 12;
  return `M${n(heel)} ${n(y)}L${n(x)} ${n(y - 6)}M${n(heel)} ${n(y)}L${n(x)} ${n(y + 6)}`;
}

function bar(x: number, y: number, side: 1 | -1, distance: number): string {
  const at = x + side * distance;
  return `M${n(at)} ${n(y - 6)}L${n(at)} ${n(y + 6)}`;
}
