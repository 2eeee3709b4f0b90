// A diagram as DBML: tables with their columns and settings, indexes, notes, enums and references.
// Written here as text (the format is small and fixed) rather than through @dbml/core's generator, which
// would load its ~300 MB of parsers into the gateway for each export; the tests parse every export with
// @dbml/core itself and compare the model it reads with the diagram.
import type { Check, Column, DiagramDocument, DocumentTable } from '@dss/schema';
import { foreignKeys, tableKeys } from './constraints';
import { DIALECTS, enumTypeName, pgEnumType, splitTableName } from './dialect';

/** A name in double quotes (`"sales"."orders"` for a schema-qualified table). */
function quoteName(name: string): string {
  return `"${name.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

function tableRef(name: string): string {
  const [schema, bare] = splitTableName(name);
  return schema === null ? quoteName(bare) : `${quoteName(schema)}.${quoteName(bare)}`;
}

/** A DBML string: single-quoted with escapes, or triple-quoted when it spans lines. */
function dbmlString(value: string): string {
  if (value.includes('\n')) return `'''${value.replaceAll('\\', '\\\\').replaceAll("'''", "\\'''")}'''`;
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A default as DBML writes it: numbers and booleans bare, string literals quoted, the rest an expression. */
function dbmlDefault(value: string): string {
  const trimmed = value.trim();
  // A number bare only when DBML reads it back as written (`0.00` would come back as `0`).
  if (/^-?\d+(\.\d+)?$/.test(trimmed) && String(Number(trimmed)) === trimmed) return trimmed;
  // Only as DBML writes them: `FALSE` stays an expression, so it reads back as written.
  if (/^(true|false|null)$/.test(trimmed)) return trimmed;
  const literal = /^N?'((?:[^']|'')*)'$/s.exec(trimmed);
  if (literal) return dbmlString((literal[1] as string).replaceAll("''", "'"));
  return `\`${trimmed.replaceAll('`', "'")}\``;
}

function enumName(document: DiagramDocument, table: string, column: Column): string {
  if (column.enum_name !== undefined) return column.enum_name;
  if (document.driver === 'pgsql') return pgEnumType(table, column).replaceAll('"', '');
  return enumTypeName(table, column.name);
}

function columnType(document: DiagramDocument, table: string, column: Column): string {
  if (column.driver_data_type_name === 'enum') {
    const name = enumName(document, table, column);
    const [schema, bare] = splitTableName(name);
    return schema === null ? quoteName(bare) : `${quoteName(schema)}.${quoteName(bare)}`;
  }
  const written = DIALECTS[document.driver].type(table, column);
  return /^[A-Za-z_][\w]*(\(\d+(,\s*\d+)?\))?$/.test(written) ? written : quoteName(written);
}

function columnLine(
  document: DiagramDocument,
  table: DocumentTable,
  column: Column,
  singlePrimary: boolean,
): string {
  const settings: string[] = [];
  if (singlePrimary && column.is_primary_key) settings.push('pk');
  if (column.is_auto_increment) settings.push('increment');
  if (!column.is_nullable) settings.push('not null');
  if (column.default !== null) settings.push(`default: ${dbmlDefault(column.default)}`);
  if (column.comment !== null) settings.push(`note: ${dbmlString(column.comment)}`);
  const tail = settings.length > 0 ? ` [${settings.join(', ')}]` : '';
  return `  ${quoteName(column.name)} ${columnType(document, table.name, column)}${tail}`;
}

export function dbmlScript(document: DiagramDocument): string {
  const blocks: string[] = [];
  const enums = new Map<string, string[]>();
  for (const table of document.tables)
    for (const column of table.columns)
      if (column.driver_data_type_name === 'enum')
        enums.set(enumName(document, table.name, column), column.driver_data_type_params?.values ?? []);
  for (const [name, values] of enums)
    blocks.push(`Enum ${tableRef(name)} {\n${values.map((value) => `  ${quoteName(value)}`).join('\n')}\n}`);
  for (const table of document.tables) {
    const keys = tableKeys(table);
    const primary = keys.find((key) => key.type === 'primary');
    // A one-column primary key is written on its column; every other key in the Indexes block.
    const singlePrimary =
      primary !== undefined &&
      primary.columns.length === 1 &&
      primary.name === `${splitTableName(table.name)[1]}_pkey`;
    const lines = table.columns.map((column) =>
      columnLine(document, table, column, singlePrimary && primary?.columns[0] === column.name),
    );
    const indexLines = keys
      .filter((key) => !(singlePrimary && key === primary))
      .map((key) => {
        const columns =
          key.columns.length === 1
            ? quoteName(key.columns[0] as string)
            : `(${key.columns.map(quoteName).join(', ')})`;
        const settings = [
          key.type === 'primary' ? 'pk' : key.type === 'unique' ? 'unique' : null,
          `name: ${dbmlString(key.name)}`,
          key.method !== undefined ? `type: ${key.method}` : null,
          key.note !== undefined ? `note: ${dbmlString(key.note)}` : null,
        ]
          .filter((setting) => setting !== null)
          .join(', ');
        return `    ${columns} [${settings}]`;
      });
    if (indexLines.length > 0) lines.push('', '  Indexes {', ...indexLines, '  }');
    const checks = (table.checks ?? []).map((check) => checkLine(check));
    if (checks.length > 0) lines.push('', '  checks {', ...checks, '  }');
    if (table.comment !== null) lines.push('', `  Note: ${dbmlString(table.comment)}`);
    blocks.push(`Table ${tableRef(table.name)} {\n${lines.join('\n')}\n}`);
  }
  for (const key of foreignKeys(document)) {
    const columns = (names: string[]) =>
      names.length === 1 ? quoteName(names[0] as string) : `(${names.map(quoteName).join(', ')})`;
    const settings = [
      key.onDelete !== null ? `delete: ${key.onDelete.toLowerCase()}` : null,
      key.onUpdate !== null ? `update: ${key.onUpdate.toLowerCase()}` : null,
    ].filter((setting) => setting !== null);
    const name = key.name === null ? '' : ` ${quoteName(key.name)}`;
    blocks.push(
      `Ref${name}: ${tableRef(key.table)}.${columns(key.columns)} > ${tableRef(key.refTable)}.${columns(key.refColumns)}${
        settings.length > 0 ? ` [${settings.join(', ')}]` : ''
      }`,
    );
  }
  blocks.push(...canvasBlocks(document));
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

/**
 * A CHECK in a table's `checks` block. A DBML expression cannot hold a backtick, so MySQL's quoted plain
 * names (`` `price` ``) are written bare (the server reads them the same); a condition that still needs
 * one is left out with a comment saying so.
 */
function checkLine(check: Check): string {
  const expression = check.expression.replace(/`([A-Za-z_][\w$]*)`/g, '$1');
  if (expression.includes('`'))
    return `    // CHECK ${check.name.replaceAll('\n', ' ')} not written: its condition quotes a name with backticks`;
  return `    \`${expression}\` [name: ${dbmlString(check.name)}]`;
}

/**
 * Groups as TableGroups (a group's first sticky note as its note) and the other sticky notes as `Note`
 * blocks, so a DBML import gives them back. Nested groups are written flat (DBML has no nesting).
 */
function canvasBlocks(document: DiagramDocument): string[] {
  const blocks: string[] = [];
  const notes = [...document.sticky_notes];
  const groupNotes = new Set<string>();
  for (const group of document.groups) {
    const members = document.tables.filter((table) => table.parent_uuid === group.uuid);
    const note = notes.find((candidate) => candidate.parent_uuid === group.uuid);
    if (note !== undefined) groupNotes.add(note.uuid);
    const settings = note === undefined ? '' : ` [note: ${dbmlString(note.content)}]`;
    blocks.push(
      `TableGroup ${quoteName(group.name)}${settings} {\n${members.map((table) => `  ${tableRef(table.name)}`).join('\n')}${members.length > 0 ? '\n' : ''}}`,
    );
  }
  let numbered = 0;
  for (const note of notes) {
    if (groupNotes.has(note.uuid)) continue;
    numbered += 1;
    blocks.push(`Note ${quoteName(`note_${numbered}`)} {\n  ${dbmlString(note.content)}\n}`);
  }
  return blocks;
}
