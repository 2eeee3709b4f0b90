// Database rows to the proto's message shapes (timestamps as ISO 8601 strings with a UTC offset).
import type { DiagramRow, VersionRow } from './repository';

/** The caller's team as its principal names it now; answers without a caller use the stored names. */
export interface TeamNames {
  team_slug: string;
  team_name: string;
}

export function toDiagram(row: DiagramRow, appUrl: string, team?: TeamNames) {
  return {
    uuid: row.uuid,
    name: row.name,
    slug: row.slug,
    ...(row.description === null ? {} : { description: row.description }),
    team_name: team?.team_name || row.team_name,
    team_slug: team?.team_slug || row.team_slug,
    ...(row.table_count === null ? {} : { table_count: row.table_count }),
    url: `${appUrl}/diagrams/${row.uuid}`,
    embed_url: `${appUrl}/embed/${row.uuid}`,
    updated_at: row.updated_at.toISOString(),
    status: row.status,
    ...(row.status === 'failed'
      ? { error: { code: row.error_code ?? 'import_failed', message: row.error_message ?? '' } }
      : {}),
    driver: row.driver,
    team_id: row.team_id,
    warnings: row.import_warnings ?? { total: 0, items: [] },
  };
}

/** `number` is the version's place in the diagram's history, 1 the oldest. */
export function toVersion(row: VersionRow, number: number) {
  return {
    uuid: row.uuid,
    number,
    created_at: row.created_at.toISOString(),
    author_user_id: row.author_user_id,
    // A patch pasted in the web app, positions saved by hand, or the editor's saves are stored as applies
    // of kind `paste`, `layout`, `editor` or `restore` (source_id: the number restored); History and the versions API name them as such.
    source:
      row.source === 'apply' &&
      (row.source_kind === 'paste' ||
        row.source_kind === 'layout' ||
        row.source_kind === 'editor' ||
        row.source_kind === 'restore')
        ? row.source_kind
        : row.source,
    source_id: row.source_id,
    label: row.label ?? '',
  };
}
