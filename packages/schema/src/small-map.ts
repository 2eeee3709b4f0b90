// A Map from strings for the many small lookups of one patch (the columns of one table, its indexes): up
// to SMALL_MAP_LIMIT entries it scans two arrays, beyond that it moves into a Map. A Map of 20 entries
// costs about 2KB as it grows; a large patch built hundreds of them, most of its garbage. Same answers as
// a Map for get, has, set and delete (keys compared with ===, which for strings is what a Map does).

export const SMALL_MAP_LIMIT = 32;

export class SmallMap<V> {
  private keys: string[] = [];
  private values: V[] = [];
  private map: Map<string, V> | null = null;

  /** `keys[i]` maps to `values[i]`; a repeated key keeps its last value, as `new Map(pairs)` would. */
  static from<V>(keys: readonly string[], values: readonly V[]): SmallMap<V> {
    const small = new SmallMap<V>();
    if (keys.length > SMALL_MAP_LIMIT) {
      small.map = new Map();
      for (let i = 0; i < keys.length; i++) small.map.set(keys[i]!, values[i]!);
    } else if (isDistinct(keys)) {
      // One exact-size copy of each array instead of growing them entry by entry.
      small.keys = keys.slice();
      small.values = values.slice(0, keys.length);
    } else for (let i = 0; i < keys.length; i++) small.set(keys[i]!, values[i]!);
    return small;
  }

  get(key: string): V | undefined {
    if (this.map !== null) return this.map.get(key);
    const position = this.keys.indexOf(key);
    return position === -1 ? undefined : this.values[position];
  }

  has(key: string): boolean {
    return this.map !== null ? this.map.has(key) : this.keys.includes(key);
  }

  set(key: string, value: V): void {
    if (this.map !== null) {
      this.map.set(key, value);
      return;
    }
    const position = this.keys.indexOf(key);
    if (position !== -1) this.values[position] = value;
    else if (this.keys.length < SMALL_MAP_LIMIT) {
      this.keys.push(key);
      this.values.push(value);
    } else {
      this.map = new Map();
      for (let i = 0; i < this.keys.length; i++) this.map.set(this.keys[i]!, this.values[i]!);
      this.map.set(key, value);
      this.keys = [];
      this.values = [];
    }
  }

  delete(key: string): boolean {
    if (this.map !== null) return this.map.delete(key);
    const position = this.keys.indexOf(key);
    if (position === -1) return false;
    this.keys.splice(position, 1);
    this.values.splice(position, 1);
    return true;
  }
}

function isDistinct(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys.lastIndexOf(keys[i]!, i - 1) !== -1) return false;
  return true;
}
