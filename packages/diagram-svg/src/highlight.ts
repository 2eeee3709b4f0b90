// Which records a drawing marks as added, changed or removed, keyed by record uuid.

export type ChangeMark = 'added' | 'changed' | 'removed';

export interface DiagramHighlight {
  tables: Map<string, ChangeMark>;
  columns: Map<string, ChangeMark>;
  indexes: Map<string, ChangeMark>;
  relationships: Map<string, ChangeMark>;
  groups: Map<string, ChangeMark>;
  sticky_notes: Map<string, ChangeMark>;
}

export function emptyHighlight(): DiagramHighlight {
  return {
    tables: new Map(),
    columns: new Map(),
    indexes: new Map(),
    relationships: new Map(),
    groups: new Map(),
    sticky_notes: new Map(),
  };
}

/** The CSS class a mark becomes on the marked element (`dss-added`, `dss-changed`, `dss-removed`). */
/** Whether the highlight marks nothing (every drawing without a review's marks). */
export function isEmptyHighlight(highlight: DiagramHighlight): boolean {
  return Object.values(highlight).every((marks: Map<string, ChangeMark>) => marks.size === 0);
}

export function markClass(mark: ChangeMark | undefined): string {
  return mark === undefined ? '' : ` dss-${mark}`;
}
