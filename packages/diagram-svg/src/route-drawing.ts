// The drawing's routing, without the markup: which relationships are drawn (both tables present) and the
// route of each. render.ts draws them; line-room.ts reads where they crowd. One place, so the step that
// makes room for the lines sees the lines the drawing will draw.
import type { DiagramDocument } from '@dss/schema';
import { type DiagramHighlight, emptyHighlight } from './highlight';
import { RelationshipEndpoints } from './relationship-endpoints';
import { type Route, routeAll } from './relationship-route';
import type { ResolvedRelationship } from './render-relationship';
import type { RouteMemory } from './routing/route-memory';
import { type Box, tableBox } from './table-geometry';
import { textOf } from './xml';

export interface DrawingRouteOptions {
  highlight?: DiagramHighlight;
  /** Sticky notes and group title bars, which lines keep off. */
  others?: readonly Box[];
  routeMemory?: RouteMemory;
  /** RoutingObstacles.withoutTrades. */
  withoutTrades?: true;
}

/**
 * The relationships whose two tables are in the document, resolved to their ends, and their routes, in
 * the same order. The tables' boxes are the fitted ones: call fitTableBoxes on the tables first.
 */
export function routeDrawing(
  document: DiagramDocument,
  options: DrawingRouteOptions = {},
): { resolved: ResolvedRelationship[]; routes: Route[] } {
  const endpoints = new RelationshipEndpoints(document, options.highlight ?? emptyHighlight());
  const resolved = document.relationships
    .map((relationship) => endpoints.resolve(relationship))
    .filter((link) => link !== null);
  const routes = routeAll(
    resolved.map((link) => ({ ...link, key: textOf(link.relationship.uuid) })),
    {
      tables: document.tables.map(tableBox),
      others: options.others ?? [],
      ...(options.routeMemory ? { memory: options.routeMemory } : {}),
      ...(options.withoutTrades ? { withoutTrades: options.withoutTrades } : {}),
    },
  );
  return { resolved, routes };
}
