import { forceCollide, forceManyBody, forceSimulation, type SimulationNodeDatum } from 'd3-force';
import { SeededRandom } from '../src/generated/random';
import { forceCollision, forceRepulsion } from '../src/layout-force-pairs';

type Node = SimulationNodeDatum & { size: number };

/** Nodes at seeded places, at rest. */
function nodesAt(places: [number, number][]): Node[] {
  return places.map(([x, y], at) => ({ x, y, vx: 0, vy: 0, size: 20 + 10 * (at % 3) }));
}

/** The velocities one tick of `force` (alone, at alpha 1) gives the nodes. */
function velocitiesAfterOneTick(
  nodes: Node[],
  force: Parameters<ReturnType<typeof forceSimulation<Node>>['force']>[1],
) {
  const copy = nodes.map((node) => ({ ...node }));
  const simulation = forceSimulation<Node>(copy).velocityDecay(0).alphaDecay(0).force('f', force!).stop();
  simulation.tick(1);
  return copy.map((node) => [node.vx!, node.vy!]);
}

describe('forceRepulsion', () => {
  it("should push nodes as d3's forceManyBody does without its approximation (theta 0)", () => {
    const random = new SeededRandom(27);
    // No two nodes on one coordinate (there both forces nudge by a random millionth, each in its own order).
    const nodes = nodesAt(
      Array.from({ length: 40 }, (_, at) => [random.integer(2000) + at / 41, random.integer(2000) + at / 41]),
    );
    const strength = (node: Node) => -100 - 3 * node.size;
    const ours = velocitiesAfterOneTick(nodes, forceRepulsion(strength));
    const d3 = velocitiesAfterOneTick(nodes, forceManyBody<Node>().strength(strength).theta(0));
    ours.forEach(([vx, vy], at) => {
      expect(vx).toBeCloseTo(d3[at]![0]!, 9);
      expect(vy).toBeCloseTo(d3[at]![1]!, 9);
    });
  });
});

describe('forceCollision', () => {
  it("should push overlapping nodes apart as d3's forceCollide does, the smaller moving more", () => {
    // Pairs far from each other, each overlapping: the order in which pairs come up does not matter.
    const nodes = nodesAt([
      [0, 0],
      [30, 10],
      [1000, 0],
      [1000, 45],
      [0, 1000],
      [-20, 1000],
      [500, 500],
    ]);
    const radius = (node: Node) => node.size;
    const ours = velocitiesAfterOneTick(nodes, forceCollision(radius, 1));
    const d3 = velocitiesAfterOneTick(nodes, forceCollide<Node>(radius));
    ours.forEach(([vx, vy], at) => {
      expect(vx).toBeCloseTo(d3[at]![0]!, 9);
      expect(vy).toBeCloseTo(d3[at]![1]!, 9);
    });
    expect(Math.hypot(...ours[0]!)).toBeGreaterThan(Math.hypot(...ours[1]!));
    expect(ours[6]).toEqual([0, 0]);
  });

  it('should leave no two circles overlapping after a few ticks', () => {
    const random = new SeededRandom(26);
    const nodes = nodesAt(Array.from({ length: 60 }, () => [random.integer(300), random.integer(300)]));
    const simulation = forceSimulation<Node>(nodes)
      .force(
        'collide',
        forceCollision((node: Node) => node.size, 2),
      )
      .stop();
    simulation.tick(100);
    for (let i = 0; i < nodes.length; i++)
      for (let j = i + 1; j < nodes.length; j++) {
        const apart = Math.hypot(nodes[i]!.x! - nodes[j]!.x!, nodes[i]!.y! - nodes[j]!.y!);
        expect(apart).toBeGreaterThan(0.99 * (nodes[i]!.size + nodes[j]!.size));
      }
  });
});
