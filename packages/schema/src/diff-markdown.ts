// A diff as compact Markdown, for agents and pull-request comments: one line per added, removed or
// changed record, renames shown as renames (records are matched by uuid), every changed attribute with
// its value before and after. Positions and sizes (canvas only) are left out.
import type { DocumentDiff, FieldChange } from './diff';

const CANVAS_FIELDS = new Set(['left', 'top', 'width', 'height', 'color', 'parent_uuid']);

export function renderDiffMarkdown(changes: DocumentDiff): string {
  const lines: string[] = [];
  const section = (title: string, entries: string[]) => {
    if (entries.length === 0) return;
    lines.push(`## ${title}`, ...entries, '');
  };
  section('Tables', [
    ...changes.tables.added.map((table) => `- added \`${table.name}\` (${table.columns.length} columns)`),
    ...changes.tables.removed.map((table) => `- removed \`${table.name}\``),
    ...changes.tables.changed.flatMap((change) => changed(`\`${change.name}\``, change.changes)),
  ]);
  section('Columns', [
    ...changes.columns.added.map(
      (part) =>
        `- added \`${part.table}.${part.record.name}\` ${part.record.driver_data_type_name}${params(part.record.driver_data_type_params)}`,
    ),
    ...changes.columns.removed.map((part) => `- removed \`${part.table}.${part.record.name}\``),
    ...changes.columns.changed.flatMap((change) =>
      changed(`\`${change.table}.${change.name}\``, change.changes),
    ),
  ]);
  section('Indexes', [
    ...changes.indexes.added.map(
      (part) =>
        `- added ${part.record.type} \`${part.record.name}\` on \`${part.table}\` (${part.record.columns.join(', ')})`,
    ),
    ...changes.indexes.removed.map((part) => `- removed \`${part.record.name}\` on \`${part.table}\``),
    ...changes.indexes.changed.flatMap((change) =>
      changed(`\`${change.table}.${change.name}\``, change.changes),
    ),
  ]);
  const endpoints = (r: {
    source_table: string;
    source_column: string;
    target_table: string;
    target_column: string;
  }) => `\`${r.source_table}.${r.source_column}\` → \`${r.target_table}.${r.target_column}\``;
  section('Relationships', [
    ...changes.relationships.added.map((r) => `- added ${endpoints(r)} (${r.type})`),
    ...changes.relationships.removed.map((r) => `- removed ${endpoints(r)}`),
    ...changes.relationships.changed.flatMap((change) =>
      changed(`relationship ${change.uuid.slice(0, 8)}`, change.changes),
    ),
  ]);
  section('Groups', [
    ...changes.groups.added.map((group) => `- added \`${group.name}\``),
    ...changes.groups.removed.map((group) => `- removed \`${group.name}\``),
    ...changes.groups.changed.flatMap((change) => changed(`\`${change.name}\``, change.changes)),
  ]);
  section('Sticky notes', [
    ...changes.sticky_notes.added.map((note) => `- added: ${oneLine(note.content)}`),
    ...changes.sticky_notes.removed.map((note) => `- removed: ${oneLine(note.content)}`),
  ]);
  return lines.length === 0 ? 'No changes.\n' : `${lines.join('\n').trimEnd()}\n`;
}

function changed(subject: string, changes: FieldChange[]): string[] {
  const shown = changes.filter((change) => !CANVAS_FIELDS.has(change.field));
  if (shown.length === 0) return [];
  const rename = shown.find((change) => change.field === 'name');
  const rest = shown.filter((change) => change.field !== 'name');
  const head = rename ? `- renamed ${value(rename.before)} → ${value(rename.after)}` : `- changed ${subject}`;
  return [
    rest.length === 0
      ? head
      : `${head}: ${rest.map((c) => `${c.field} ${value(c.before)} → ${value(c.after)}`).join('; ')}`,
  ];
}

function value(raw: unknown): string {
  if (raw === null || raw === undefined) return 'none';
  if (typeof raw === 'string') return `\`${raw}\``;
  return `\`${JSON.stringify(raw)}\``;
}

function params(raw: unknown): string {
  return Array.isArray(raw) && raw.length > 0 ? `(${raw.join(',')})` : '';
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}
