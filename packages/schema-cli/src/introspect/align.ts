// A live database has no record identities, a diagram has: to compare them with the one diff engine (which
// matches by uuid, so a rename is a rename), the live document takes the diagram's uuids for the tables,
// columns, indexes and relationships of the same name, and the diagram's canvas (frames, colours, groups,
// notes), which a database does not have. What is left differs in the schema only.
import type { Column, DiagramDocument, DocumentTable, Relationship } from '@dss/schema';

const endpoints = (r: Relationship) =>
  [r.source_table, r.source_column, r.target_table, r.target_column].join('\u0000');

/** `'a'::character varying` and `'a'` are one default: the server adds the cast when it stores it. */
const bareDefault = (value: string | null) =>
  value?.replace(/::[a-z ]+(\(\d+(,\d+)?\))?(\[\])?$/i, '').replace(/^\((.*)\)$/, '$1') ?? null;

function alignColumn(live: Column, known: Column | undefined): Column {
  if (!known) return live;
  const sameDefault = bareDefault(live.default) === bareDefault(known.default);
  return { ...live, uuid: known.uuid, default: sameDefault ? known.default : live.default };
}

function alignTable(live: DocumentTable, known: DocumentTable | undefined): DocumentTable {
  if (!known) return live;
  const columns = new Map(known.columns.map((column) => [column.name, column]));
  const indexes = new Map(known.indexes.map((index) => [index.name, index]));
  return {
    ...live,
    uuid: known.uuid,
    left: known.left,
    top: known.top,
    width: known.width,
    height: known.height,
    color: known.color,
    parent_uuid: known.parent_uuid,
    columns: live.columns.map((column) => alignColumn(column, columns.get(column.name))),
    indexes: live.indexes.map((index) => ({ ...index, uuid: indexes.get(index.name)?.uuid ?? index.uuid })),
  };
}

export function alignToDiagram(live: DiagramDocument, diagram: DiagramDocument): DiagramDocument {
  const tables = new Map(diagram.tables.map((table) => [table.name, table]));
  const relationships = new Map(
    diagram.relationships.map((relationship) => [endpoints(relationship), relationship]),
  );
  return {
    ...live,
    tables: live.tables.map((table) => alignTable(table, tables.get(table.name))),
    relationships: live.relationships.map((relationship) => {
      const known = relationships.get(endpoints(relationship));
      if (!known) return relationship;
      // The server names every foreign key; a diagram that left the name out meant the server's default.
      return { ...relationship, uuid: known.uuid, name: known.name === null ? null : relationship.name };
    }),
    groups: diagram.groups,
    sticky_notes: diagram.sticky_notes,
  };
}
