// Colours of tables and groups: canvas-only, like positions, and outside the schema patch (the spec's patch
// lists no colour, and an unknown key is stripped with a warning). The web editor sends them beside its
// patch, keyed by the names the records have once the patch is applied; the diagrams service and the
// editor apply them with the same function. A colour is a hex colour `#rrggbb` (or `#rgb`), or null for
// the default one.
import type { DiagramDocument } from './model';

export interface CanvasColors {
  /** Table name → colour (null: the default). */
  tables?: Record<string, string | null>;
  /** Group name → colour (null: the default). */
  groups?: Record<string, string | null>;
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const MAX_ENTRIES = 5000;

export type CanvasColorsResult<T> = { ok: true; value: T } | { ok: false; path: string; message: string };

/** Reads colours from untrusted JSON: an object of `tables` and `groups`, each mapping a name to a colour. */
export function parseCanvasColors(value: unknown): CanvasColorsResult<CanvasColors> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, path: 'colors', message: 'must be a JSON object' };
  const colors: CanvasColors = {};
  for (const [section, entries] of Object.entries(value as Record<string, unknown>)) {
    if (section !== 'tables' && section !== 'groups')
      return { ok: false, path: `colors.${section}`, message: 'only tables and groups have colours' };
    if (entries === null || typeof entries !== 'object' || Array.isArray(entries))
      return { ok: false, path: `colors.${section}`, message: 'must map names to colours' };
    const pairs = Object.entries(entries as Record<string, unknown>);
    if (pairs.length > MAX_ENTRIES)
      return { ok: false, path: `colors.${section}`, message: `must hold at most ${MAX_ENTRIES} entries` };
    const kept: Record<string, string | null> = {};
    for (const [name, color] of pairs) {
      if (color !== null && (typeof color !== 'string' || !HEX_COLOR.test(color)))
        return {
          ok: false,
          path: `colors.${section}.${name}`,
          message: 'must be a hex colour such as #3b82f6, or null for the default',
        };
      kept[name] = color === null ? null : color.toLowerCase();
    }
    colors[section] = kept;
  }
  return { ok: true, value: colors };
}

/** True when the colours change nothing. */
export function isEmptyCanvasColors(colors: CanvasColors | undefined): boolean {
  return (
    colors === undefined ||
    (Object.keys(colors.tables ?? {}).length === 0 && Object.keys(colors.groups ?? {}).length === 0)
  );
}

/**
 * The document with the colours set. Every name must be a table or group of the document; the first that
 * is not is the answer's `path` (`colors.tables.<name>`), and the document is left as it was.
 */
export function applyCanvasColors(
  document: DiagramDocument,
  colors: CanvasColors | undefined,
): CanvasColorsResult<DiagramDocument> {
  if (isEmptyCanvasColors(colors)) return { ok: true, value: document };
  const tables = colors?.tables ?? {};
  const groups = colors?.groups ?? {};
  const tableNames = new Set(document.tables.map((table) => table.name));
  const groupNames = new Set(document.groups.map((group) => group.name));
  for (const name of Object.keys(tables))
    if (!tableNames.has(name))
      return { ok: false, path: `colors.tables.${name}`, message: `the diagram has no table ${name}` };
  for (const name of Object.keys(groups))
    if (!groupNames.has(name))
      return { ok: false, path: `colors.groups.${name}`, message: `the diagram has no group ${name}` };
  const has = (record: Record<string, unknown>, name: string) => Object.hasOwn(record, name);
  return {
    ok: true,
    value: {
      ...document,
      tables: document.tables.map((table) =>
        has(tables, table.name) && tables[table.name] !== table.color
          ? { ...table, color: tables[table.name] ?? null }
          : table,
      ),
      groups: document.groups.map((group) =>
        has(groups, group.name) && groups[group.name] !== group.color
          ? { ...group, color: groups[group.name] ?? null }
          : group,
      ),
    },
  };
}

/**
 * The colours that turn `from` into `to`, for records present in both (matched by uuid) and for new
 * records with a colour, named as `to` names them; undefined when none changed.
 */
export function canvasColorsBetween(from: DiagramDocument, to: DiagramDocument): CanvasColors | undefined {
  const changed = <T extends { uuid: string; name: string; color: string | null }>(
    before: readonly T[],
    after: readonly T[],
  ): Record<string, string | null> => {
    const was = new Map(before.map((record) => [record.uuid, record.color]));
    const out: Record<string, string | null> = {};
    for (const record of after) {
      const old = was.has(record.uuid) ? was.get(record.uuid) : null;
      if ((old ?? null) !== (record.color ?? null)) out[record.name] = record.color ?? null;
    }
    return out;
  };
  const colors: CanvasColors = {};
  const tables = changed(from.tables, to.tables);
  const groups = changed(from.groups, to.groups);
  if (Object.keys(tables).length > 0) colors.tables = tables;
  if (Object.keys(groups).length > 0) colors.groups = groups;
  return isEmptyCanvasColors(colors) ? undefined : colors;
}
