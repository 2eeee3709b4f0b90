// What the editor's canvas changes in the drawn SVG after an edit: the renderer draws the diagram in keyed
// parts (tables by name, relationships by uuid; renderDiagramParts), and a part whose markup is the same as
// the one on the page keeps its node; only parts whose markup changed (or that are new) are parsed and
// put in. The plan says, per layer, which node goes where, so the patched layer is, part for part and in
// order, the markup of a full drawing of the same document.
import type { DiagramParts, DrawnPart } from '@dss/diagram-svg';

/** One child of a patched layer, in order: an existing node (by its index in the layer) or new markup. */
export type LayerStep = { keep: number } | { markup: string; key: string };

export interface LayerPlan {
  steps: LayerStep[];
  /** Indices of existing nodes that are no longer drawn. */
  removed: number[];
  /** How many parts are drawn again (new or changed). */
  redrawn: number;
}

/** How to turn a layer drawn from `before` into one drawn from `after`, reusing unchanged nodes. */
export function planLayer(before: readonly DrawnPart[], after: readonly DrawnPart[]): LayerPlan {
  // Earlier parts by key; a key can repeat in a malformed document, so each holds a queue. Markup is
  // compared only between parts of one key: a kept table's markup is the very string drawn before
  // (MarkupCache), so most comparisons are of a string with itself.
  const byKey = new Map<string, number[]>();
  before.forEach((part, at) => {
    const list = byKey.get(part.key);
    if (list === undefined) byKey.set(part.key, [at]);
    else list.push(at);
  });
  const used = new Set<number>();
  let redrawn = 0;
  const steps = after.map((part): LayerStep => {
    const list = byKey.get(part.key);
    const found = list?.findIndex((at) => (before[at] as DrawnPart).markup === part.markup) ?? -1;
    if (list !== undefined && found >= 0) {
      const at = list[found] as number;
      list.splice(found, 1);
      used.add(at);
      return { keep: at };
    }
    redrawn++;
    return { markup: part.markup, key: part.key };
  });
  const removed = before.map((_part, at) => at).filter((at) => !used.has(at));
  return { steps, removed, redrawn };
}

/**
 * Whether a drawing can be patched into the one on the page: same layers present (a layer exists only
 * when it has parts) and the same groups and notes (few, and drawn as one piece each).
 */
export function patchable(before: DiagramParts, after: DiagramParts): boolean {
  const sameStrings = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((value, at) => value === b[at]);
  return (
    before.empty === after.empty &&
    before.title === after.title &&
    (before.tables.length === 0) === (after.tables.length === 0) &&
    (before.relationships.length === 0) === (after.relationships.length === 0) &&
    sameStrings(before.groups, after.groups) &&
    sameStrings(before.notes, after.notes)
  );
}
