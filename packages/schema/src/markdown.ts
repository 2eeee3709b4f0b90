// The Markdown rendering of a schema (GET /diagrams/{uuid}/schema with format=ai or Accept: text/markdown,
// and the get_schema tool). One line per column keeps it compact for a language model and readable for a
// person; tables are in the schema order (sorted by name), so equal schemas render to equal bytes.
import { type RelationshipIssueKind, relationshipIssues } from './integrity';
import type { Column, DataTypeParams, Index, Relationship, Table } from './model';
import { escapeName, escapeText } from './markdown-escape';
import { type SchemaSource, sortRelationships, sortTables } from './project';

export const MARKDOWN_LEVELS = ['detailed', 'simple'] as const;
export type MarkdownLevel = (typeof MARKDOWN_LEVELS)[number];

export function renderMarkdown(source: SchemaSource, level: MarkdownLevel = 'detailed'): string {
  // The same order as the schema response, without copying the records.
  const tables = sortTables(source.tables);
  return level === 'simple'
    ? renderSimple(source.driver, tables)
    : renderDetailed(source.driver, tables, sortRelationships(source.relationships), refusedKeys(source));
}

const REFUSED: Record<RelationshipIssueKind, string> = {
  target_not_key: 'the target is not a primary or unique key',
  incompatible_types: 'the column types do not match',
};

/** Relationships the database would refuse as foreign keys (an import can hold them), flagged in the text. */
function refusedKeys(source: SchemaSource): Map<string, string[]> {
  const refused = new Map<string, string[]>();
  for (const issue of relationshipIssues(source))
    for (const relationship of issue.relationships) {
      const reasons = refused.get(relationship.uuid) ?? [];
      if (!reasons.includes(REFUSED[issue.kind])) reasons.push(REFUSED[issue.kind]);
      refused.set(relationship.uuid, reasons);
    }
  return refused;
}

function renderSimple(driver: string, tables: Table[]): string {
  const lines = [`# Schema (${driver}, ${plural(tables.length, 'table')})`, ''];
  for (const table of tables) {
    lines.push(
      `- ${escapeName(table.name)}: ${table.columns.map((column) => escapeName(column.name)).join(', ')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function renderDetailed(
  driver: string,
  tables: Table[],
  relationships: Relationship[],
  refused: ReadonlyMap<string, string[]>,
): string {
  const lines = [
    `# Schema (${driver}, ${plural(tables.length, 'table')}, ${plural(relationships.length, 'relationship')})`,
    '',
    'Columns: `name: type, constraints`; nullable unless marked not null.',
  ];
  for (const table of tables) {
    lines.push('');
    addTableLines(lines, table);
  }
  if (relationships.length > 0) {
    lines.push('', '## Relationships');
    for (const relationship of relationships)
      lines.push(relationshipLine(relationship, refused.get(relationship.uuid)));
  }
  return `${lines.join('\n')}\n`;
}

/** Appends a table's lines (pushed one by one: a diagram has tens of thousands of them to join). */
function addTableLines(lines: string[], table: Table): void {
  lines.push(`## ${escapeName(table.name)}`);
  if (table.comment !== null && table.comment !== '') lines.push(`Comment: ${escapeText(table.comment)}`);
  if (table.charset !== undefined || table.collation !== undefined)
    lines.push(
      [
        table.charset === undefined ? '' : `Charset: ${escapeText(table.charset)}`,
        table.collation === undefined ? '' : `Collation: ${escapeText(table.collation)}`,
      ]
        .filter((part) => part !== '')
        .join(', '),
    );
  for (const column of table.columns) lines.push(columnLine(column));
  if (table.indexes.length > 0) {
    lines.push('Indexes:');
    for (const index of table.indexes) lines.push(indexLine(index));
  }
  const checks = table.checks ?? [];
  if (checks.length > 0) {
    lines.push('Checks:');
    for (const check of checks) lines.push(`- ${escapeName(check.name)}: ${escapeText(check.expression)}`);
  }
}

/** `- name: type, constraints…`, built as one string rather than an array joined per column. */
function columnLine(column: Column): string {
  let line = `- ${escapeName(column.name)}: ${typeText(column)}`;
  if (column.enum_name !== undefined) line += ` (type ${escapeName(column.enum_name)})`;
  if (column.collation !== undefined) line += `, collation ${escapeText(column.collation)}`;
  if (column.is_primary_key) line += ', PK';
  if (column.is_auto_increment) line += ', auto-increment';
  if (column.is_unique_key) line += ', unique';
  if (column.is_index) line += ', index';
  if (!column.is_nullable) line += ', not null';
  if (column.default !== null) line += `, default ${escapeText(column.default)}`;
  if (column.comment !== null && column.comment !== '') line += `, comment: ${escapeText(column.comment)}`;
  return line;
}

/** `varchar(255)`, `decimal(10,2)`, `enum('a','b')`, `text[]`, `int unsigned`. */
export function typeText(
  column: Pick<Column, 'driver_data_type_name' | 'driver_data_type_params' | 'is_unsigned'>,
) {
  const params = column.driver_data_type_params;
  let text = escapeName(column.driver_data_type_name) + (params === null ? '' : typeArguments(params));
  if (params?.fields !== undefined) text += ` ${escapeText(params.fields)}`;
  if (params?.array === true) text += '\\[\\]';
  if (column.is_unsigned) text += ' unsigned';
  return text;
}

function typeArguments(params: DataTypeParams): string {
  if (params.values !== undefined) {
    return `(${params.values.map((value) => `'${escapeText(value.replaceAll("'", "''"))}'`).join(',')})`;
  }
  if (params.length !== undefined) return `(${params.length})`;
  if (params.precision !== undefined && params.scale !== undefined)
    return `(${params.precision},${params.scale})`;
  if (params.precision !== undefined) return `(${params.precision})`;
  return '';
}

function indexLine(index: Index): string {
  let line = `- ${escapeName(index.name)}: ${index.type}`;
  if (index.method !== undefined) line += ` using ${index.method}`;
  line += ` (${index.columns.map(escapeName).join(', ')})`;
  if (index.note !== undefined) line += `, note: ${escapeText(index.note)}`;
  return line;
}

function relationshipLine(r: Relationship, refused: string[] | undefined): string {
  const source = `${escapeName(r.source_table)}.${escapeName(r.source_column)}`;
  const target = `${escapeName(r.target_table)}.${escapeName(r.target_column)}`;
  const actions = [
    r.on_delete === null ? '' : `, on delete ${escapeText(r.on_delete)}`,
    r.on_update === null ? '' : `, on update ${escapeText(r.on_update)}`,
    refused === undefined ? '' : `; not a valid foreign key: ${refused.join(', ')}`,
  ].join('');
  return `- ${source} -> ${target} (${r.type}${actions})`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
