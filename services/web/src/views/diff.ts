// The diff of a proposal as added / changed / removed sections: tables, columns (before → after),
// indexes, relationships, groups and sticky notes. Every name and value is text (escaped by `html`).
import type { Column, DocumentDiff, FieldChange, Relationship } from '@dss/schema';
import { type Html, html } from '../html';

export function diffView(changes: DocumentDiff): Html {
  const sections = [
    section('Tables', changes.tables, {
      added: (table) =>
        html`<strong>${table.name}</strong>${commentOf(table.comment)}<ul class="columns">${table.columns.map(
          (column) =>
            html`<li><code>${column.name}</code> ${typeText(column)}${commentOf(column.comment)}</li>`,
        )}</ul>`,
      changed: (change) => html`<strong>${change.name}</strong>${fieldChanges(change.changes)}`,
      removed: (table) => html`<strong>${table.name}</strong>`,
    }),
    section('Columns', changes.columns, {
      added: (part) =>
        html`<code>${part.table}.${part.record.name}</code> ${typeText(part.record)}${commentOf(part.record.comment)}`,
      changed: (change) => html`<code>${change.table}.${change.name}</code>${fieldChanges(change.changes)}`,
      removed: (part) => html`<code>${part.table}.${part.record.name}</code>`,
    }),
    section('Indexes', changes.indexes, {
      added: (part) =>
        html`<code>${part.record.name}</code> on ${part.table} (${part.record.columns.join(', ')}) · ${part.record.type}`,
      changed: (change) =>
        html`<code>${change.name}</code> on ${change.table}${fieldChanges(change.changes)}`,
      removed: (part) => html`<code>${part.record.name}</code> on ${part.table}`,
    }),
    section('Relationships', changes.relationships, {
      added: (relationship) => relationshipText(relationship),
      changed: (change) => html`relationship ${change.uuid.slice(0, 8)}${fieldChanges(change.changes)}`,
      removed: (relationship) => relationshipText(relationship),
    }),
    section('Groups', changes.groups, {
      added: (group) => html`<strong>${group.name}</strong>`,
      changed: (change) => html`<strong>${change.name}</strong>${fieldChanges(change.changes)}`,
      removed: (group) => html`<strong>${group.name}</strong>`,
    }),
    section('Notes', changes.sticky_notes, {
      added: (note) => html`<span class="plain-text">${note.content}</span>`,
      changed: (change) => html`note${fieldChanges(change.changes)}`,
      removed: (note) => html`<span class="plain-text">${note.content}</span>`,
    }),
  ].filter((rendered): rendered is Html => rendered !== null);
  if (sections.length === 0)
    return html`<p class="muted">This proposal changes nothing in the diagram as it is now.</p>`;
  return html`<div class="diff">${sections}</div>`;
}

function section<A, C, R>(
  title: string,
  records: { added: A[]; changed: C[]; removed: R[] },
  show: { added: (record: A) => Html; changed: (change: C) => Html; removed: (record: R) => Html },
): Html | null {
  if (records.added.length + records.changed.length + records.removed.length === 0) return null;
  const group = <T>(kind: 'added' | 'changed' | 'removed', items: T[], item: (value: T) => Html) =>
    items.length === 0
      ? ''
      : html`<h4 class="mark-${kind}">${kind[0]!.toUpperCase()}${kind.slice(1)} (${items.length})</h4>
<ul class="changes mark-${kind}">${items.map((value) => html`<li>${item(value)}</li>`)}</ul>`;
  return html`<section class="diff-section" data-section="${title.toLowerCase()}">
<h3>${title}</h3>
${group('added', records.added, show.added)}
${group('changed', records.changed, show.changed)}
${group('removed', records.removed, show.removed)}
</section>`;
}

function fieldChanges(changes: FieldChange[]): Html {
  return html`<ul class="fields">${changes.map(
    (change) =>
      html`<li><span class="field">${change.field}</span>: <span class="before">${valueText(change.before)}</span> → <span class="after">${valueText(change.after)}</span></li>`,
  )}</ul>`;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function commentOf(comment: string | null): Html | '' {
  return comment ? html` <span class="comment plain-text">${comment}</span>` : '';
}

export function typeText(column: Column): string {
  const params = column.driver_data_type_params;
  let text = column.driver_data_type_name;
  if (params?.values) text += `(${params.values.map((value) => `'${value}'`).join(', ')})`;
  else if (params?.length !== undefined) text += `(${params.length})`;
  else if (params?.precision !== undefined)
    text += params.scale !== undefined ? `(${params.precision}, ${params.scale})` : `(${params.precision})`;
  if (params?.array) text += '[]';
  if (column.is_unsigned) text += ' unsigned';
  if (!column.is_nullable) text += ' not null';
  // Every attribute a reviewer decides on, for a new column as for a changed one.
  if (column.is_primary_key) text += ' · primary key';
  if (column.is_auto_increment) text += ' · auto-increment';
  if (column.is_unique_key) text += ' · unique';
  if (column.is_index) text += ' · indexed';
  if (column.default !== null && column.default !== undefined && column.default !== '')
    text += ` · default ${column.default}`;
  return text;
}

function relationshipText(relationship: Relationship): Html {
  return html`<code>${relationship.source_table}.${relationship.source_column}</code> → <code>${relationship.target_table}.${relationship.target_column}</code> (${relationship.type})`;
}
