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
  // Unchanged parts by key and markup; a key can repeat in a malformed document, so each holds a queue.
  const unchanged = new Map<string, number[]>();
  before.forEach((part, at) => {
    const id = `${part.key}\u0000${part.markup}`;
    const list = unchanged.get(id);
    if (list === undefined) unchanged.set(id, [at]);
    else list.push(at);
  });
  const used = new Set<number>();
  let redrawn = 0;
  const steps = after.map((part): LayerStep => {
    const at = unchanged.get(`${part.key}\u0000${part.markup}`)?.shift();
    if (at !== undefined) {
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
