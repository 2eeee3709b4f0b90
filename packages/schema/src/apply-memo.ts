// The result of applying a patch, kept from validation for the caller's own apply. Validation applies a
// patch to check the relationships it leaves (validation/relationship-integrity.ts); the caller then
// applies the same patch to the same document, and gets that result once instead of paying for it twice.
import type { DiagramDocument } from './model';
import type { Patch } from './patch-types';

interface Kept<T> {
  document: DiagramDocument;
  result: T;
}

const kept = new WeakMap<Patch, Kept<unknown>>();

export function keepApplied<T>(patch: Patch, document: DiagramDocument, result: T): void {
  kept.set(patch, { document, result });
}

/** The kept result of `patch` on `document` (or on an equally empty document), handed out once. */
export function takeApplied<T>(patch: Patch, document: DiagramDocument): T | undefined {
  const entry = kept.get(patch);
  if (entry === undefined) return undefined;
  if (
    entry.document !== document &&
    !(isEmpty(entry.document) && isEmpty(document) && entry.document.driver === document.driver)
  )
    return undefined;
  kept.delete(patch);
  return entry.result as T;
}

function isEmpty(document: DiagramDocument): boolean {
  return (
    document.tables.length === 0 &&
    document.relationships.length === 0 &&
    document.groups.length === 0 &&
    document.sticky_notes.length === 0
  );
}
