// A diagram as a Mermaid `erDiagram`: an entity per table with its columns (type, PK/FK/UK, comment) and a
// relationship per foreign key with crow's-foot ends. Each end says how many rows of the table beside it
// go with one row of the other: a referenced row has zero or more referencing rows (`}o`; zero or one,
// `|o`, for one to one), since no key makes a row be referenced; a referencing row has exactly one
// referenced row (`||`) when its key columns are NOT NULL, and zero or one (`o|`) when a column may be
// NULL. Mermaid's attribute types are single words, so a type's spaces and commas become underscores
// (`timestamp_with_time_zone`, `numeric(10_2)`).
import type { DiagramDocument } from '@dss/schema';
import { foreignKeys, tableKeys } from './constraints';
import { DIALECTS } from './dialect';

/** An entity name bare when Mermaid reads it so, else in double quotes (quotes inside become apostrophes). */
function entity(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? name : `"${name.replaceAll('"', "'")}"`;
}

function word(text: string): string {
  const cleaned = text.replace(/[\s,]+/g, '_').replace(/[^A-Za-z0-9_()[\]-]/g, '');
  return /^[A-Za-z_*]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function label(text: string): string {
  return `"${text.replaceAll('"', "'").replace(/\s+/g, ' ')}"`;
}

export function mermaidScript(document: DiagramDocument): string {
  const dialect = DIALECTS[document.driver];
  const keys = foreignKeys(document);
  const lines = ['erDiagram'];
  for (const table of document.tables) {
    const tableKeyList = tableKeys(table);
    const uniques = new Set(
      tableKeyList
        .filter((key) => key.type === 'unique' && key.columns.length === 1)
        .map((key) => key.columns[0]),
    );
    const referencing = new Set(keys.filter((key) => key.table === table.name).flatMap((key) => key.columns));
    lines.push(`  ${entity(table.name)} {`);
    for (const column of table.columns) {
      const marks = [
        column.is_primary_key ? 'PK' : null,
        referencing.has(column.name) ? 'FK' : null,
        uniques.has(column.name) || column.is_unique_key ? 'UK' : null,
      ].filter((mark) => mark !== null);
      const type = column.driver_data_type_name === 'enum' ? 'enum' : dialect.type(table.name, column);
      const comment = column.comment !== null ? ` ${label(column.comment)}` : '';
      lines.push(
        `    ${word(type)} ${word(column.name)}${marks.length > 0 ? ` ${marks.join(', ')}` : ''}${comment}`,
      );
    }
    lines.push('  }');
  }
  for (const key of keys) {
    const source = document.tables.find((table) => table.name === key.table);
    const optional = key.columns.some(
      (name) => source?.columns.find((c) => c.name === name)?.is_nullable !== false,
    );
    const oneToOne = document.relationships.some(
      (r) => r.source_table === key.table && r.source_column === key.columns[0] && r.type === 'one-to-one',
    );
    const referencing = oneToOne ? '|o' : '}o';
    const referenced = optional ? 'o|' : '||';
    lines.push(
      `  ${entity(key.table)} ${referencing}--${referenced} ${entity(key.refTable)} : ${label(key.name ?? key.columns.join(', '))}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
