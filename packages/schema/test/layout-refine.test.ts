import { SeededRandom } from '../src/generated/random';
import { layOutForce } from '../src/layout-force';
import { LAYOUT_GAP } from '../src/layout-placer';
import { compactLayout, type PortLink, portCrossings, refineLayout } from '../src/layout-refine';

type Corner = { left: number; top: number };
const size = { width: 240, height: 140 };

/** A seeded graph shaped like an application schema: modules of linked tables and one hub all reference. */
function schemaGraph(tables: number, links: number) {
  const random = new SeededRandom(26);
  const names = Array.from({ length: tables }, (_, at) => `t${at}`);
  const sized = names.map((name, at) => ({
    name,
    width: 180 + 40 * (at % 4),
    height: 68 + 24 * (at % 7),
  }));
  const edges: PortLink[] = [];
  for (let at = 1; at < tables; at++) {
    if (at % 3 === 0) edges.push({ source: names[at]!, target: names[0]!, sourceRow: 60, targetRow: 48 });
  }
  while (edges.length < links) {
    const a = random.integer(tables - 1) + 1;
    const b = Math.min(tables - 1, Math.max(1, a + random.integer(9) - 4));
    if (a !== b) edges.push({ source: names[a]!, target: names[b]!, sourceRow: 84, targetRow: 48 });
  }
  return { tables: sized, links: edges };
}

function gapsKept(tables: { name: string; width: number; height: number }[], at: Map<string, Corner>) {
  const short: string[] = [];
  for (let i = 0; i < tables.length; i++)
    for (let j = i + 1; j < tables.length; j++) {
      const a = { ...tables[i]!, ...at.get(tables[i]!.name)! };
      const b = { ...tables[j]!, ...at.get(tables[j]!.name)! };
      const apartX = Math.max(b.left - (a.left + a.width), a.left - (b.left + b.width));
      const apartY = Math.max(b.top - (a.top + a.height), a.top - (b.top + b.height));
      if (Math.max(apartX, apartY) < LAYOUT_GAP) short.push(`${a.name} ${b.name}`);
    }
  return short;
}

describe('refineLayout', () => {
  it('should make two tables trade places when that uncrosses their lines', () => {
    // a b      a–d and b–c cross in the middle; with a and b traded, neither crosses.
    // c d
    const tables = ['a', 'b', 'c', 'd'].map((name) => ({ name, ...size }));
    const links = [
      { source: 'a', target: 'd' },
      { source: 'b', target: 'c' },
    ];
    const at = new Map<string, Corner>([
      ['a', { left: 0, top: 0 }],
      ['b', { left: 400, top: 0 }],
      ['c', { left: 0, top: 400 }],
      ['d', { left: 400, top: 400 }],
    ]);
    expect(portCrossings(tables, links, at)).toBe(1);
    const refined = refineLayout(tables, links, at);
    expect(portCrossings(tables, links, refined)).toBe(0);
    expect([...refined.values()].map(({ left, top }) => `${left},${top}`).sort()).toEqual(
      [...at.values()].map(({ left, top }) => `${left},${top}`).sort(),
    );
  });

  it('should cross fewer lines than the force layout it starts from, keeping every gap', () => {
    const { tables, links } = schemaGraph(90, 160);
    const forced = layOutForce(tables, links);
    const refined = refineLayout(tables, links, forced);
    expect(portCrossings(tables, links, refined)).toBeLessThan(0.9 * portCrossings(tables, links, forced));
    expect(gapsKept(tables, refined)).toEqual([]);
  });

  it('should not move a table beside a table of many lines closer than their fan needs', () => {
    // hub (31 lines: 124 px of room at its sides), p 60 px to its right, q below p and linked to the hub, r
    // below q and linked to p: p and q trading places would shorten both lines, but would put q 60 px
    // beside the hub.
    const leaves = Array.from({ length: 30 }, (_, at) => `leaf${at}`);
    const tables = ['hub', 'p', 'q', 'r', ...leaves].map((name) => ({ name, ...size }));
    const links = [
      { source: 'q', target: 'hub' },
      { source: 'p', target: 'r' },
      ...leaves.map((leaf) => ({ source: leaf, target: 'hub' })),
    ];
    const at = new Map<string, Corner>([
      ['hub', { left: 0, top: 0 }],
      ['p', { left: 300, top: 0 }],
      ['q', { left: 300, top: 600 }],
      ['r', { left: 300, top: 1200 }],
      ...leaves.map((leaf, n): [string, Corner] => [leaf, { left: -4000 + 300 * n, top: 3000 }]),
    ]);
    const refined = refineLayout(tables, links, at);
    const beside = tables.filter(({ name }) => {
      const table = refined.get(name)!;
      const rowsMeet = table.top < size.height + LAYOUT_GAP && 0 < table.top + size.height + LAYOUT_GAP;
      const apart = Math.max(table.left - size.width, -(table.left + size.width));
      return name !== 'hub' && rowsMeet && apart < 4 * 31;
    });
    expect(beside.map(({ name }) => name)).toEqual(['p']);
    expect(gapsKept(tables, refined)).toEqual([]);
  });

  it('should be deterministic', () => {
    const { tables, links } = schemaGraph(60, 100);
    const forced = layOutForce(tables, links);
    expect([...refineLayout(tables, links, forced)]).toEqual([...refineLayout(tables, links, forced)]);
  });

  it('should refine a large schema (spread, then pulled in) keeping every gap, deterministically', () => {
    const { tables, links } = schemaGraph(120, 220);
    const forced = layOutForce(tables, links);
    const refined = refineLayout(tables, links, forced);
    expect(gapsKept(tables, refined)).toEqual([]);
    expect(portCrossings(tables, links, refined)).toBeLessThan(0.9 * portCrossings(tables, links, forced));
    expect([...refineLayout(tables, links, forced)]).toEqual([...refined]);
  });
});

describe('compactLayout', () => {
  it('should pull tables towards the centre as far as the gaps allow, keeping their order along each axis', () => {
    // a and b side by side far apart, c below a: pulled in by half, a and b stop a gap apart.
    const tables = ['a', 'b', 'c'].map((name) => ({ name, ...size }));
    const at = new Map<string, Corner>([
      ['a', { left: 0, top: 0 }],
      ['b', { left: 300, top: 0 }],
      ['c', { left: 0, top: 1000 }],
    ]);
    const compact = compactLayout(tables, at, 0.5);
    expect(gapsKept(tables, compact)).toEqual([]);
    expect(compact.get('b')!.left - compact.get('a')!.left).toBe(size.width + LAYOUT_GAP);
    expect(compact.get('c')!.top - compact.get('a')!.top).toBeLessThan(1000);
    expect(compact.get('c')!.top - compact.get('a')!.top).toBeGreaterThanOrEqual(size.height + LAYOUT_GAP);
    expect(compact.get('a')).toEqual({ left: LAYOUT_GAP, top: LAYOUT_GAP });
  });

  it('should keep every gap and the order of facing tables on a force layout', () => {
    const { tables, links } = schemaGraph(90, 160);
    const forced = layOutForce(tables, links);
    const compact = compactLayout(tables, forced, 0.8);
    expect(gapsKept(tables, compact)).toEqual([]);
    const area = (at: Map<string, Corner>) => {
      let [right, bottom] = [0, 0];
      for (const table of tables) {
        right = Math.max(right, at.get(table.name)!.left + table.width);
        bottom = Math.max(bottom, at.get(table.name)!.top + table.height);
      }
      return right * bottom;
    };
    expect(area(compact)).toBeLessThan(area(forced));
  });
});
