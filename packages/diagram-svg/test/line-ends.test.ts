// Each relationship has its own port on its column's row: line ends that meet one row on one edge of a
// table (every table referencing `users.id`) are spread over the row, and when the row is too short for
// that, fanned out just outside the table. Measured from the rendered SVG through the markup contract.
import type { DiagramDocument } from '@dss/schema';
import { measureSvg, renderDiagramSvg } from '../src';
import { crossings, type Drawing, MAX_SHARED, sharedRuns } from '../src/geometry-check';
import { sharedEndCrossings } from '../src/line-metrics';
import { RouteMemory } from '../src/routing/route-memory';
import { HEADER_HEIGHT, ROW_HEIGHT } from '../src/table-geometry';
import { corpusFiles, importCorpus } from './corpus';
import { documentFrom } from './fixtures';

/** Two ends of one row closer than this read as one. */
const MIN_GAP = 4;
/** A row of 24 px holds this many ends MIN_GAP apart; more are fanned. */
const ROW_HOLDS = 6;
/** How far out of the table a line's approach point lies at least (past the end markers). */
const APPROACH = 15;

interface End {
  line: string;
  /** Where the line meets the table's edge. */
  point: [number, number];
  /** The first point of the line, from its end, at least APPROACH px out of the table. */
  approach: [number, number];
}

interface Problems {
  offRow: string[];
  stacked: string[];
  /** Ends per row edge, the most of any row. */
  most: number;
}

/** Every line end of `drawing` checked against the document's tables and columns. */
function checkEnds(document: DiagramDocument, drawing: Drawing): Problems {
  const tables = new Map(document.tables.map((table) => [table.name, table]));
  const boxes = new Map(drawing.tables.map((table) => [table.name, table.box]));
  const relationships = new Map(document.relationships.map((r) => [r.uuid, r]));
  const rows = new Map<string, End[]>();
  const offRow: string[] = [];
  for (const line of drawing.relationships) {
    const relationship = relationships.get(line.id);
    if (relationship === undefined) throw new Error(`no relationship ${line.id}`);
    const sides = [
      { table: relationship.source_table, column: relationship.source_column, points: line.points },
      {
        table: relationship.target_table,
        column: relationship.target_column,
        points: [...line.points].reverse(),
      },
    ];
    for (const { table, column, points } of sides) {
      const box = boxes.get(table)!;
      const row = tables.get(table)!.columns.findIndex((c) => c.name === column);
      const [x, y] = points[0]!;
      const top = box.top + HEADER_HEIGHT + ROW_HEIGHT * row;
      const edge =
        Math.abs(x - box.left) < 0.5 ? 'left' : Math.abs(x - box.left - box.width) < 0.5 ? 'right' : null;
      if (edge === null || y < top || y > top + ROW_HEIGHT) {
        offRow.push(`${line.id} ends at ${x},${y}, not on ${table}.${column}'s row`);
        continue;
      }
      const approach = points.find(([px]) => Math.abs(px - x) >= APPROACH) ?? points.at(-1)!;
      const key = `${table} ${row} ${edge}`;
      rows.set(key, [...(rows.get(key) ?? []), { line: line.id, point: [x, y], approach }]);
    }
  }
  const stacked: string[] = [];
  let most = 0;
  for (const [key, ends] of rows) {
    most = Math.max(most, ends.length);
    ends.sort((a, b) => a.point[1] - b.point[1]);
    // On the edge: MIN_GAP apart while the row holds them; a fan's ends (more than a row holds) are
    // distinct points on the row, and MIN_GAP apart where they leave the table (below).
    const onEdge = ends.length <= ROW_HOLDS ? MIN_GAP - 0.05 : 0.1;
    for (let at = 1; at < ends.length; at++) {
      const [before, here] = [ends[at - 1]!, ends[at]!];
      if (here.point[1] - before.point[1] < onEdge)
        stacked.push(
          `${key}: ${before.line} and ${here.line} meet the edge at ${before.point} and ${here.point}`,
        );
      // Out of the table their own runs begin MIN_GAP apart at least, in the same order (no crossing).
      const gap = Math.hypot(here.approach[0] - before.approach[0], here.approach[1] - before.approach[1]);
      if (gap < MIN_GAP - 0.05 || here.approach[1] < before.approach[1])
        stacked.push(
          `${key}: ${before.line} and ${here.line} leave at ${before.approach} and ${here.approach}`,
        );
    }
  }
  return { offRow, stacked, most };
}

const column = (name: string) => ({ name, type: 'bigint', is_nullable: false });

/**
 * `users` and `count` tables referencing `users.id`, placed by `place` (left, top of the n-th); with
 * `invitedBy`, users.invited_by references users.id too; `others` are tables of no relationship; `taller`
 * more columns of users.
 */
function hub(
  count: number,
  place: (n: number) => [number, number],
  invitedBy = false,
  others: object[] = [],
  taller = 0,
): DiagramDocument {
  const referencing = Array.from({ length: count }, (_, n) => {
    const [left, top] = place(n);
    return {
      name: `t${n}`,
      left,
      top,
      width: 160,
      columns: [{ ...column('id'), is_primary_key: true }, column('user_id')],
    };
  });
  return documentFrom({
    strategy: 'merge',
    tables: [
      {
        name: 'users',
        left: 500,
        top: 400,
        width: 200,
        columns: [
          { ...column('id'), is_primary_key: true },
          column('email'),
          column('invited_by'),
          ...Array.from({ length: taller }, (_, n) => column(`c${n}`)),
        ],
      },
      ...referencing,
      ...others,
    ],
    relationships: [...referencing.map((table) => table.name), ...(invitedBy ? ['users'] : [])].map(
      (name) => ({
        source_table: name,
        source_column: name === 'users' ? 'invited_by' : 'user_id',
        target_table: 'users',
        target_column: 'id',
        type: 'many-to-one',
      }),
    ),
  }).document;
}

describe('line ends on one row', () => {
  it.each([
    {
      case: '6 tables to the right of users',
      count: 6,
      ends: 6,
      place: (n: number): [number, number] => [920, n * 160],
    },
    {
      case: '12 tables to the right of users (fanned)',
      count: 12,
      ends: 12,
      place: (n: number): [number, number] => [920, n * 130],
    },
    {
      case: '9 tables on both sides of users',
      count: 9,
      ends: 5,
      place: (n: number): [number, number] => [n % 2 === 0 ? 920 : 80, Math.floor(n / 2) * 160],
    },
    {
      case: '6 tables on both sides of users and users.invited_by',
      count: 6,
      ends: 4,
      place: (n: number): [number, number] => [n % 2 === 0 ? 920 : 80, Math.floor(n / 2) * 160],
      invitedBy: true,
    },
  ])(
    '$case: each line has its own port on users.id, distinct from the others',
    ({ count, ends, place, invitedBy }) => {
      const document = hub(count, place, invitedBy);
      const drawing = measureSvg(renderDiagramSvg(document));
      expect(drawing.relationships).toHaveLength(document.relationships.length);
      const { offRow, stacked, most } = checkEnds(document, drawing);
      expect(offRow).toEqual([]);
      expect(stacked).toEqual([]);
      // The busiest row edge holds the ends the case puts there.
      expect(most).toBe(ends);
    },
  );

  // Lines ending on one row never need to cross each other (ordered by where they go, their fan is planar).
  // The search picks each line's long run on its own; the lanes order runs on one grid line by where their
  // lines part, and crossing lines of one row trade their ways (routing/uncross.ts). Before: 38 and 153
  // crossings; with the trades 16 and 73; with a fanned row's lines no longer gathered beside the table
  // (each in a lane of its own to its approach point) 0 and 34. The goal is 0 (README "Routing", issue 26).
  it.each([
    {
      case: '12 tables in a column to the right of users',
      count: 12,
      place: (n: number): [number, number] => [920, n * 130],
      most: 0,
    },
    {
      case: '24 tables in two columns to the right of users',
      count: 24,
      place: (n: number): [number, number] => [920 + 260 * (n % 2), Math.floor(n / 2) * 110],
      most: 40,
    },
  ])('$case: the lines ending on users.id cross each other at most $most times', ({ count, place, most }) => {
    const document = hub(count, place);
    const drawing = measureSvg(renderDiagramSvg(document));
    expect(drawing.relationships).toHaveLength(count);
    expect(crossings(drawing)).toEqual([]);
    // Every line here ends on users.id: each crossing is one between two lines of its fan.
    expect(sharedEndCrossings(drawing)).toBeLessThanOrEqual(most);
  });

  it('a fanned row keeps its lines out of the table standing below it (a hub row of 60 ends)', () => {
    // Sixty ends fan out 300 px along users' right edge: as far down as the table below users, where a
    // line's approach point would lie inside that table and its search find no path.
    const below = hub(60, (n) => [920 + 220 * (n % 3), Math.floor(n / 3) * 110], false, [
      { name: 'below', left: 560, top: 580, width: 220, columns: [column('id')] },
    ]);
    const drawing = measureSvg(renderDiagramSvg(below));
    expect(drawing.relationships).toHaveLength(60);
    expect(crossings(drawing)).toEqual([]);
  });

  it('a tall hub’s fanned row: its lines run beside each other, not on one another, even beside the hub', () => {
    // Thirty tables down both sides of a users table 40 columns tall reference users.id, on its first row:
    // the lines from far down its sides reach the fan in lanes of their own.
    const tall = hub(30, (n) => [n % 2 === 0 ? 920 : 80, Math.floor(n / 2) * 110], false, [], 37);
    const drawing = measureSvg(renderDiagramSvg(tall));
    expect(drawing.tables.find((table) => table.name === 'users')!.box.height).toBeGreaterThan(800);
    expect(crossings(drawing)).toEqual([]);
    // Shared runs counted right up to the tables (no 30 px where lines converge on their rows).
    expect(sharedRuns(drawing, MAX_SHARED, 0)).toEqual([]);
  });

  it('the editor redrawing with its route memory keeps the ports distinct after an edit', () => {
    const memory = new RouteMemory();
    const before = hub(9, (n) => [920, n * 150]);
    renderDiagramSvg(before, { routeMemory: memory });
    // One referencing table moves to the left of users: the ports on both edges of users.id change.
    const after = {
      ...before,
      tables: before.tables.map((table) => (table.name === 't4' ? { ...table, left: 80 } : table)),
    };
    const drawing = measureSvg(renderDiagramSvg(after, { routeMemory: memory }));
    const { offRow, stacked } = checkEnds(after, drawing);
    expect(offRow).toEqual([]);
    expect(stacked).toEqual([]);
    // And the same ports as a fresh drawing (every port depends on the others at its row): where each
    // line meets its tables and where it leaves them.
    const ports = (lines: Drawing['relationships']) =>
      lines.map((line) =>
        [line.points, [...line.points].reverse()].map((points) => {
          const [x, y] = points[0]!;
          return [x, y, (points.find(([px]) => Math.abs(px - x) >= APPROACH) ?? points.at(-1)!)[1]];
        }),
      );
    expect(ports(drawing.relationships)).toEqual(ports(measureSvg(renderDiagramSvg(after)).relationships));
  });

  it.each(corpusFiles().filter(({ file }) => /danbooru|pagila/.test(file)))(
    '$file: every line end on its column row, no two ends of one row coincide',
    async (entry) => {
      const document = await importCorpus(entry);
      const drawing = measureSvg(renderDiagramSvg(document));
      const { offRow, stacked, most } = checkEnds(document, drawing);
      expect(offRow).toEqual([]);
      expect(stacked).toEqual([]);
      expect(most).toBeGreaterThanOrEqual(2);
    },
    120_000,
  );
});
