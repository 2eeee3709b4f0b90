// A small seeded generator (mulberry32), so generated diagrams and patches are the same on every run.

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  integer(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.integer(items.length)]!;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** A version-4-shaped UUID drawn from this generator. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.integer(16).toString(16));
    hex[12] = '4';
    hex[16] = '89ab'[this.integer(4)]!;
    const text = hex.join('');
    return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
  }
}
