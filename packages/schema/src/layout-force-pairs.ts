// The repulsion and collision of the force layout (layout-force.ts), pair by pair over plain arrays. They
// apply d3-force's forceManyBody and forceCollide formulas, but to every pair of tables exactly, where d3
// finds the pairs through a quadtree (Barnes–Hut for the repulsion): for the few hundred tables of a
// schema, building and walking a tree of objects every tick costs several times more than all the pairs
// (300 tables: 45,000 pairs a pass, about 0.3 ms). Deterministic: a coincident pair is pushed apart in a
// direction from the simulation's own seeded random source, as d3 does.
import type { Force, SimulationNodeDatum } from 'd3-force';

type Random = () => number;

/** Positions and velocities of the simulation's nodes, copied in and (velocities) out around a pass. */
class Pairs<N extends SimulationNodeDatum> {
  nodes: N[] = [];
  x = new Float64Array(0);
  y = new Float64Array(0);
  vx = new Float64Array(0);
  vy = new Float64Array(0);
  random: Random = Math.random;

  initialize(nodes: N[], random: Random): void {
    this.nodes = nodes;
    this.random = random;
    for (const key of ['x', 'y', 'vx', 'vy'] as const) this[key] = new Float64Array(nodes.length);
  }

  read(): void {
    this.nodes.forEach((node, i) => {
      this.x[i] = node.x ?? 0;
      this.y[i] = node.y ?? 0;
      this.vx[i] = node.vx ?? 0;
      this.vy[i] = node.vy ?? 0;
    });
  }

  write(): void {
    this.nodes.forEach((node, i) => {
      node.vx = this.vx[i]!;
      node.vy = this.vy[i]!;
    });
  }

  /** d3's nudge for two nodes on the same coordinate: a millionth of a px, either way. */
  jiggle(): number {
    return (this.random() - 0.5) * 1e-6;
  }
}

/**
 * Every node pushes every other away with its strength (negative: repels) over their distance, scaled by
 * the simulation's alpha: d3's forceManyBody with theta 0 (no approximation), no maximum distance, and its
 * minimum distance of 1 px.
 */
export function forceRepulsion<N extends SimulationNodeDatum>(
  strength: (node: N) => number,
): Force<N, never> {
  const pairs = new Pairs<N>();
  let strengths = new Float64Array(0);
  const force = (alpha: number) => {
    pairs.read();
    const { x, y, vx, vy } = pairs;
    const n = x.length;
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      const si = strengths[i]! * alpha;
      let ax = 0;
      let ay = 0;
      for (let j = i + 1; j < n; j++) {
        let dx = x[j]! - xi;
        let dy = y[j]! - yi;
        let l = dx * dx + dy * dy;
        if (dx === 0) {
          dx = pairs.jiggle();
          l += dx * dx;
        }
        if (dy === 0) {
          dy = pairs.jiggle();
          l += dy * dy;
        }
        if (l < 1) l = Math.sqrt(l);
        const towardsJ = (strengths[j]! * alpha) / l;
        ax += dx * towardsJ;
        ay += dy * towardsJ;
        const towardsI = si / l;
        vx[j]! -= dx * towardsI;
        vy[j]! -= dy * towardsI;
      }
      vx[i]! += ax;
      vy[i]! += ay;
    }
    pairs.write();
  };
  force.initialize = (nodes: N[], random: Random) => {
    pairs.initialize(nodes, random);
    strengths = Float64Array.from(nodes, strength);
  };
  return force;
}

/**
 * Nodes are circles of the given radii that push each other apart where they overlap, the smaller moving
 * more, `iterations` passes a tick: d3's forceCollide (strength 1) over every pair, each pair's overlap
 * taken as it is when the pair's first node comes up in the pass (positions one step ahead: x + vx).
 */
export function forceCollision<N extends SimulationNodeDatum>(
  radius: (node: N) => number,
  iterations: number,
): Force<N, never> {
  const pairs = new Pairs<N>();
  let radii = new Float64Array(0);
  let largest = 0;
  const force = () => {
    pairs.read();
    const { x, y, vx, vy } = pairs;
    const n = x.length;
    for (let pass = 0; pass < iterations; pass++)
      for (let i = 0; i < n; i++) {
        const ri = radii[i]!;
        const ri2 = ri * ri;
        const xi = x[i]! + vx[i]!;
        const yi = y[i]! + vy[i]!;
        const reach = ri + largest;
        for (let j = i + 1; j < n; j++) {
          let dx = xi - x[j]! - vx[j]!;
          if (dx > reach || dx < -reach) continue;
          let dy = yi - y[j]! - vy[j]!;
          const rj = radii[j]!;
          const r = ri + rj;
          let l = dx * dx + dy * dy;
          if (l >= r * r) continue;
          if (dx === 0) {
            dx = pairs.jiggle();
            l += dx * dx;
          }
          if (dy === 0) {
            dy = pairs.jiggle();
            l += dy * dy;
          }
          l = Math.sqrt(l);
          const push = (r - l) / l;
          dx *= push;
          dy *= push;
          const share = (rj * rj) / (ri2 + rj * rj);
          vx[i]! += dx * share;
          vy[i]! += dy * share;
          vx[j]! -= dx * (1 - share);
          vy[j]! -= dy * (1 - share);
        }
      }
    pairs.write();
  };
  force.initialize = (nodes: N[], random: Random) => {
    pairs.initialize(nodes, random);
    radii = Float64Array.from(nodes, radius);
    largest = radii.reduce((a, b) => Math.max(a, b), 0);
  };
  return force;
}
