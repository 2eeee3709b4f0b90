// The server's copy of a document after a save (or another person's version) is a new set of objects, most
// of them equal in content to the records the editor already holds. The drawing keeps markup by record
// (MarkupCache), so a copy of new objects would draw every table and line again although nothing changed
// (about 70 ms on 300 tables, in the middle of the person's next edit). `shareUnchanged` keeps the editor's
// own record wherever the new one has the same content, and the editor's whole document when nothing at all
// differs; records are never changed in place, so sharing them is safe.
import type { DiagramDocument } from '@dss/schema';

export function shareUnchanged(before: DiagramDocument, after: DiagramDocument): DiagramDocument {
  const tables = shareList(before.tables, after.tables, (table) => table.name);
  const relationships = shareList(before.relationships, after.relationships, (r) => r.uuid);
  const groups = shareList(before.groups, after.groups, (group) => group.uuid);
  const notes = shareList(before.sticky_notes, after.sticky_notes, (note) => note.uuid);
  const shared: DiagramDocument = {
    ...after,
    tables,
    relationships,
    groups,
    sticky_notes: notes,
  };
  const same =
    tables === before.tables &&
    relationships === before.relationships &&
    groups === before.groups &&
    notes === before.sticky_notes &&
    sameContent(withoutLists(before), withoutLists(shared));
  return same ? before : shared;
}

/** `after`'s records, each replaced by `before`'s record of the same key when equal; `before` itself when all are. */
function shareList<T extends object>(before: T[], after: T[], keyOf: (record: T) => unknown): T[] {
  if (!Array.isArray(before) || !Array.isArray(after)) return after;
  const byKey = new Map<unknown, T>();
  for (const record of before) byKey.set(keyOf(record), record);
  let all = before.length === after.length;
  const shared = after.map((record, at) => {
    const earlier = byKey.get(keyOf(record));
    if (earlier !== undefined && sameContent(earlier, record)) {
      if (before[at] !== earlier) all = false;
      return earlier;
    }
    all = false;
    return record;
  });
  return all ? before : shared;
}

function withoutLists(document: DiagramDocument): Record<string, unknown> {
  const { tables: _t, relationships: _r, groups: _g, sticky_notes: _n, ...rest } = document;
  return rest;
}

/** Whether two JSON values are equal in content (objects by their keys, in any order; arrays in order). */
export function sameContent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let at = 0; at < a.length; at++) if (!sameContent(a[at], b[at])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    if (left[key] === undefined) {
      if (right[key] !== undefined) return false;
      continue;
    }
    if (!Object.hasOwn(right, key) || !sameContent(left[key], right[key])) return false;
    count++;
  }
  let others = 0;
  for (const key in right) if (Object.hasOwn(right, key) && right[key] !== undefined) others++;
  return count === others;
}
