// Name lookup that survives renames inside one patch: `old_name` is resolved against the names the records
// had before the patch, a plain name against the names they have now. That makes swaps (a→b, b→a) work.

export class NameIndex<Id = string> {
  private readonly entries: readonly (readonly [string, Id])[];
  private readonly current: Map<string, Id>;
  /** Built on the first `old_name` lookup: most patch entries rename nothing. */
  private original: Map<string, Id> | undefined;

  /** `exists` tells whether an id is still in the draft (deleted records are not found by old names). */
  constructor(
    entries: readonly (readonly [name: string, id: Id])[],
    private readonly exists: (id: Id) => boolean = () => true,
  ) {
    this.entries = entries;
    this.current = new Map(entries);
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

  /** The id that carried `name` before the patch, if that record still exists. */
  getOriginal(name: string): Id | undefined {
    this.original ??= new Map(this.entries);
    const id = this.original.get(name);
    return id !== undefined && this.exists(id) ? id : undefined;
  }

  add(name: string, id: Id): void {
    this.current.set(name, id);
  }

  rename(id: Id, from: string, to: string): void {
    if (this.current.get(from) === id) this.current.delete(from);
    this.current.set(to, id);
  }
}
