// A Map from strings for the many small lookups of one patch (the columns of one table, its indexes): up
// to SMALL_MAP_LIMIT entries it scans two arrays, beyond that it moves into a Map. A Map of 20 entries
// costs about 2KB as it grows; a large patch built hundreds of them, most of its garbage. Same answers as
// a Map for get, has, set and delete (keys compared with ===, which for strings is what a Map does).

export const SMALL_MAP_LIMIT = 32;

export class SmallMap<V> {
  /** Below the limit: a key may appear more than once; its last occurrence holds its value. */
  private keys: string[] = [];
  private values: V[] = [];
  private map: Map<string, V> | null = null;

  /** `keys[i]` maps to `values[i]`; a repeated key keeps its last value, as `new Map(pairs)` would. */
  static from<V>(keys: readonly string[], values: readonly V[]): SmallMap<V> {
    const small = new SmallMap<V>();
    if (keys.length > SMALL_MAP_LIMIT) small.map = toMap(keys, values);
    else {
      // One exact-size copy of each array instead of growing them entry by entry.
      small.keys = keys.slice();
      small.values = values.slice(0, keys.length);
    }
    return small;
  }

  get(key: string): V | undefined {
    if (this.map !== null) return this.map.get(key);
    const position = this.keys.lastIndexOf(key);
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
    const position = this.keys.lastIndexOf(key);
    if (position !== -1) this.values[position] = value;
    else if (this.keys.length < SMALL_MAP_LIMIT) {
      this.keys.push(key);
      this.values.push(value);
    } else {
      this.map = toMap(this.keys, this.values);
      this.map.set(key, value);
      this.keys = [];
      this.values = [];
    }
  }

  /** Visits each key once with its value, in the order a Map would: by each key's first insertion. */
  forEach(visit: (value: V, key: string) => void): void {
    if (this.map !== null) {
      this.map.forEach(visit);
      return;
    }
    for (let position = 0; position < this.keys.length; position++) {
      const key = this.keys[position]!;
      if (this.keys.indexOf(key) === position) visit(this.values[this.keys.lastIndexOf(key)]!, key);
    }
  }

  delete(key: string): boolean {
    if (this.map !== null) return this.map.delete(key);
    let found = false;
    for (let position = this.keys.lastIndexOf(key); position !== -1; position = this.keys.lastIndexOf(key)) {
      this.keys.splice(position, 1);
      this.values.splice(position, 1);
      found = true;
    }
    return found;
  }
}

/** Later occurrences of a key overwrite earlier ones, so the Map holds each key's last value. */
function toMap<V>(keys: readonly string[], values: readonly V[]): Map<string, V> {
  const map = new Map<string, V>();
  for (let i = 0; i < keys.length; i++) map.set(keys[i]!, values[i]!);
  return map;
}
