import fc from 'fast-check';
import { SMALL_MAP_LIMIT, SmallMap } from '../src/small-map';

type Operation = { kind: 'set'; key: string; value: number } | { kind: 'delete'; key: string };

// Few distinct keys make repeats and deletions of present keys common; enough of them to cross the limit.
const keys = fc.integer({ min: 0, max: SMALL_MAP_LIMIT + 8 }).map((n) => `k${n}`);
const operations: fc.Arbitrary<Operation[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: keys, value: fc.integer() }),
    fc.record({ kind: fc.constant('delete' as const), key: keys }),
  ),
  { maxLength: 200 },
);

/** The key at which the two disagree, or null (plain comparisons: thousands of expect calls are slow). */
function firstDifference(small: SmallMap<number>, map: Map<string, number>): string | null {
  for (let n = 0; n <= SMALL_MAP_LIMIT + 8; n++) {
    const key = `k${n}`;
    if (small.get(key) !== map.get(key) || small.has(key) !== map.has(key)) return key;
  }
  return null;
}

describe('SmallMap', () => {
  it('answers get and has, and visits in the same order, like a Map after any sequence of set and delete, below and above its limit', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, fc.integer()), { maxLength: 50 }), operations, (initial, steps) => {
        const small = SmallMap.from(
          initial.map(([key]) => key),
          initial.map(([, value]) => value),
        );
        const map = new Map(initial);
        expect(firstDifference(small, map)).toBeNull();
        for (const step of steps) {
          if (step.kind === 'set') {
            small.set(step.key, step.value);
            map.set(step.key, step.value);
          } else if (small.delete(step.key) !== map.delete(step.key)) return false;
          if (firstDifference(small, map) !== null) return false;
        }
        const visited: [string, number][] = [];
        small.forEach((value, key) => {
          visited.push([key, value]);
        });
        expect(visited).toEqual([...map]);
        return true;
      }),
    );
  });

  it('keeps the last value of a key repeated in the arrays it is built from, as new Map(pairs) does', () => {
    const small = SmallMap.from(['a', 'b', 'a'], [1, 2, 3]);
    expect(small.get('a')).toBe(3);
    expect(small.delete('a')).toBe(true);
    expect(small.has('a')).toBe(false);
  });
});
