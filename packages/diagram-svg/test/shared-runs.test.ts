// Two relationships' lines lying on one another over a run read as one line (a "trunk" that does not
// exist). The lanes keep apart the runs the search put together; these are the cases where they could not:
// a line's first or last run (which holds its column's row and never moved), and the column beside a tall
// hub where the lines of a fan reached past the band they gather in. Measured from the rendered SVG.
import { measureSvg, renderDiagramSvg } from '../src';
import { crossings, type Drawing, sharedRuns } from '../src/geometry-check';
import { documentFrom } from './fixtures';

const column = (name: string) => ({ name, type: 'bigint' });
const key = { ...column('id'), is_primary_key: true };

/** Lines with a run that is neither horizontal nor vertical, more than a fan's last 8 px across. */
function slanting(drawing: Drawing): string[] {
  return drawing.relationships
    .filter(({ points }) =>
      points.some((point, at) => {
        const next = points[at + 1];
        return (
          next !== undefined && Math.abs(next[0] - point[0]) > 8.01 && Math.abs(next[1] - point[1]) > 0.01
        );
      }),
    )
    .map(({ id }) => id);
}

describe('shared runs', () => {
  it('two facing tables with rows at one height: the lines leaving them across the gap do not share a run', () => {
    // a.c_id runs right to c, b.d_id left to d; both leave their table on the same height and cross the gap
    // between a and b before they turn down (440 px on one another before their first runs could move).
    const document = documentFrom({
      strategy: 'merge',
      tables: [
        { name: 'a', left: 800, top: 200, width: 200, columns: [key, column('c_id')] },
        { name: 'b', left: 1500, top: 200, width: 200, columns: [key, column('d_id')] },
        { name: 'c', left: 2200, top: 700, width: 200, columns: [key] },
        { name: 'd', left: 100, top: 700, width: 200, columns: [key] },
      ],
      relationships: [
        {
          source_table: 'a',
          source_column: 'c_id',
          target_table: 'c',
          target_column: 'id',
          type: 'many-to-one',
        },
        {
          source_table: 'b',
          source_column: 'd_id',
          target_table: 'd',
          target_column: 'id',
          type: 'many-to-one',
        },
      ],
    }).document;
    const drawing = measureSvg(renderDiagramSvg(document));
    expect(drawing.relationships).toHaveLength(2);
    expect(sharedRuns(drawing)).toEqual([]);
    expect(crossings(drawing)).toEqual([]);
    expect(slanting(drawing)).toEqual([]);
  });

  it('a tall hub with its key row at the top: the fan of 50 lines stays beside the table, no two share a run', () => {
    // 50 ends on orgs.id fan out 250 px; centred on the row (48 px below the table's top) the fan reached
    // 80 px above the band its lines then gathered in, where they all ran on the few px of column beside the
    // table (3 shared runs and a slanted end before the fan was kept beside the table's height). A fanned
    // row's lines no longer gather there: each reaches its approach point in a lane of its own.
    const referencing = Array.from({ length: 50 }, (_, n) => ({
      name: `t${n}`,
      left: 100,
      top: n * 110,
      width: 160,
      columns: [key, column('org_id')],
    }));
    const document = documentFrom({
      strategy: 'merge',
      tables: [
        {
          name: 'orgs',
          left: 900,
          top: 1000,
          width: 260,
          columns: [key, ...Array.from({ length: 30 }, (_, k) => column(`c${k}`))],
        },
        ...referencing,
      ],
      relationships: referencing.map((table) => ({
        source_table: table.name,
        source_column: 'org_id',
        target_table: 'orgs',
        target_column: 'id',
        type: 'many-to-one',
      })),
    }).document;
    const drawing = measureSvg(renderDiagramSvg(document));
    expect(drawing.relationships).toHaveLength(50);
    expect(crossings(drawing)).toEqual([]);
    expect(sharedRuns(drawing)).toEqual([]);
    expect(slanting(drawing)).toEqual([]);
  });
});
