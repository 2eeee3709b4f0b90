// A routing made elsewhere (the web app's, sent with the editor page) seeds the editor's route memory: the
// same document is then drawn byte for byte as a fresh drawing draws it with no line routed again, and a
// changed document routes again only the lines the change touched.
import type { DiagramDocument } from '@dss/schema';
import { generateDiagram } from '@dss/schema/dist/generated/generate-diagram';
import { measureSvg, renderDiagramSvg } from '../src';
import { RouteMemory, type RouteSeed } from '../src/routing/route-memory';

/** The seed of a fresh routing of `document`, as it travels: through JSON. */
function seedOf(document: DiagramDocument): unknown {
  const memory = new RouteMemory();
  renderDiagramSvg(document, { routeMemory: memory });
  return JSON.parse(JSON.stringify(memory.export()));
}

describe('RouteMemory.seeded()', () => {
  const document = generateDiagram({ tables: 40, columnsPerTable: 8 });

  it('draws the seeded document as a fresh drawing does, routing no line again', () => {
    const memory = RouteMemory.seeded(seedOf(document));
    expect(renderDiagramSvg(document, { routeMemory: memory })).toBe(renderDiagramSvg(document));
    expect(memory.rerouted).toBe(0);
  });

  it('routes again only the lines near a table that moved, and draws what the routing left', () => {
    const target = document.tables[20]!;
    const moved: DiagramDocument = {
      ...document,
      tables: document.tables.map((table) =>
        table === target ? { ...table, left: (table.left ?? 0) + 300, top: (table.top ?? 0) + 40 } : table,
      ),
    };
    const memory = RouteMemory.seeded(seedOf(document));
    const seeded = renderDiagramSvg(moved, { routeMemory: memory });
    const ofTarget = document.relationships.filter(
      (r) => r.source_table === target.name || r.target_table === target.name,
    ).length;
    expect(memory.rerouted).toBeGreaterThanOrEqual(ofTarget);
    expect(memory.rerouted).toBeLessThan(document.relationships.length / 2);
    // The editor after the same edit draws the same: a memory that made the first routing itself.
    const own = new RouteMemory();
    renderDiagramSvg(document, { routeMemory: own });
    expect(seeded).toBe(renderDiagramSvg(moved, { routeMemory: own }));
  });

  it.each([
    ['not an object', 'routes'],
    ['no lists', { boxes: 1, routes: {} }],
    [
      'entries of the wrong shape',
      {
        boxes: ['0,0,1,1'],
        routes: [
          ['k', 'e'],
          ['k', 'e', [1, 2, 3]],
          [1, 'e', [0, 0, 1, 1]],
          ['k', 'e', [0, 'x', 1, 1]],
        ],
      },
    ],
  ] as [string, unknown][])('routes every line again from a seed with %s', (_what, seed) => {
    const memory = RouteMemory.seeded(seed);
    expect(renderDiagramSvg(document, { routeMemory: memory })).toBe(renderDiagramSvg(document));
    expect(memory.rerouted).toBe(document.relationships.length);
  });

  it('carries the places on their rows of lines that traded them, and keeps every end in a place of its own after an edit', () => {
    const seed = seedOf(document) as RouteSeed;
    // Lines to one row that crossed traded their ways and their places (routing/uncross.ts).
    const traded = seed.routes.filter((entry) => entry.length === 4);
    expect(traded.length).toBeGreaterThan(0);
    // Each table that a traded line leaves from moves in turn: lines routed again take the places on the
    // row that the kept lines left, so no two lines end at one point of a table.
    const keys = new Set(traded.map(([key]) => key));
    const movedTables = new Set(
      document.relationships.filter((r) => keys.has(r.uuid)).map((r) => r.source_table),
    );
    expect(movedTables.size).toBeGreaterThan(0);
    for (const name of [...movedTables].slice(0, 4)) {
      const moved: DiagramDocument = {
        ...document,
        tables: document.tables.map((table) =>
          table.name === name ? { ...table, top: (table.top ?? 0) + 30 } : table,
        ),
      };
      const memory = RouteMemory.seeded(seed);
      const drawing = measureSvg(renderDiagramSvg(moved, { routeMemory: memory }));
      expect(memory.rerouted).toBeGreaterThan(0);
      const ends = drawing.relationships.flatMap((line) => [
        `${line.source} ${line.points[0]!.join(',')}`,
        `${line.target} ${line.points.at(-1)!.join(',')}`,
      ]);
      expect(ends.filter((end, at) => ends.indexOf(end) !== at)).toEqual([]);
    }
  });

  it('exports what it was seeded with', () => {
    const seed = seedOf(document) as RouteSeed;
    expect(RouteMemory.seeded(seed).export()).toEqual(seed);
  });
});

describe('RouteMemory.repeat()', () => {
  const document = generateDiagram({ tables: 40, columnsPerTable: 8 });

  it('hands out the last routing again for the same input, and routes again when only a row moved', () => {
    const memory = new RouteMemory();
    renderDiagramSvg(document, { routeMemory: memory });
    // A comment changes no box and no row: the same lines, none routed again.
    const commented: DiagramDocument = {
      ...document,
      tables: document.tables.map((table, at) => (at === 3 ? { ...table, comment: 'noted' } : table)),
    };
    expect(renderDiagramSvg(commented, { routeMemory: memory })).toBe(renderDiagramSvg(commented));
    expect(memory.rerouted).toBe(0);
    // Two columns of a referencing table swap places: same boxes, but its lines leave from other rows.
    const relationship = document.relationships[0]!;
    const swapped: DiagramDocument = {
      ...document,
      tables: document.tables.map((table) => {
        if (table.name !== relationship.source_table) return table;
        const columns = [...table.columns];
        const at = columns.findIndex((column) => column.name === relationship.source_column);
        const other = at === columns.length - 1 ? at - 1 : at + 1;
        [columns[at], columns[other]] = [columns[other]!, columns[at]!];
        return { ...table, columns };
      }),
    };
    expect(renderDiagramSvg(swapped, { routeMemory: memory })).toBe(
      renderDiagramSvg(swapped, { routeMemory: seededWith(commented) }),
    );
    expect(memory.rerouted).toBeGreaterThan(0);
  });
});

/** A memory that has routed `document` (as the editor's has, before its next edit). */
function seededWith(document: DiagramDocument): RouteMemory {
  const memory = new RouteMemory();
  renderDiagramSvg(document, { routeMemory: memory });
  return memory;
}
