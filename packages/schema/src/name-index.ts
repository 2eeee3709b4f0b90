// Name lookup that survives renames inside one patch: `old_name` is resolved against the names the records
// had before the patch, a plain name against the names they have now. That makes swaps (a→b, b→a) work.

import { SMALL_MAP_LIMIT, SmallMap } from './small-map';

/** Up to this many names, an `old_name` is found by scanning them: cheaper than building a second Map. */
const SCAN_LIMIT = SMALL_MAP_LIMIT;

export class NameIndex<Id = string> {
  /** The names records carry now; small for one table's columns, so it scans rather than hashes. */
  private readonly current: SmallMap<Id>;
  /** Built on the first `old_name` lookup, and only for many names: most patch entries rename nothing. */
  private original: Map<string, Id> | undefined;

  /**
   * `names[i]` is the name of the record `ids[i]` before the patch; `exists` tells whether an id is still in
   * the draft (deleted records are not found by old names).
   */
  constructor(
    private readonly names: readonly string[],
    private readonly ids: readonly Id[],
    private readonly exists: (id: Id) => boolean = () => true,
  ) {
    this.current = SmallMap.from(names, ids);
  }

  /** The id a patch entry refers to: its `old_name` first (when given and known), then its name. */
  find(name: string, oldName?: string): Id | undefined {
    if (oldName !== undefined) {
      const renamed = this.getOriginal(oldName);
      if (renamed !== undefined) return renamed;
    }
    return this.get(name);
  }

  /** The id that carries `name` now. */
  get(name: string): Id | undefined {
    const id = this.current.get(name);
    return id !== undefined && this.exists(id) ? id : undefined;
  }

  /** The id that carried `name` before the patch (the last one, as a Map built from them would hold). */
  getOriginal(name: string): Id | undefined {
    const id = this.originalId(name);
    return id !== undefined && this.exists(id) ? id : undefined;
  }

  add(name: string, id: Id): void {
    this.current.set(name, id);
  }

  rename(id: Id, from: string, to: string): void {
    if (this.current.get(from) === id) this.current.delete(from);
    this.current.set(to, id);
  }

  private originalId(name: string): Id | undefined {
    if (this.names.length <= SCAN_LIMIT) {
      for (let i = this.names.length - 1; i >= 0; i--) if (this.names[i] === name) return this.ids[i];
      return undefined;
    }
    if (this.original === undefined) {
      this.original = new Map();
      for (let i = 0; i < this.names.length; i++) this.original.set(this.names[i]!, this.ids[i]!);
    }
    return this.original.get(name);
  }
}
