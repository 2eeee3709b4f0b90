// The constraints and indexes a table gets, read from the document the same way by the CREATE script and
// the migration: foreign keys gathered from relationships (a composite key is stored as one relationship
// per column pair with the constraint's name), and keys from the table's indexes plus the column flags no
// index covers (a column marked unique or indexed by a patch without an index record).
import type { Column, DiagramDocument, DocumentTable, Index, Relationship } from '@dss/schema';
import { splitTableName } from './dialect';

export interface ForeignKey {
  /** Identity for matching two versions: the relationships' uuids, sorted and joined. */
  key: string;
  name: string | null;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: string | null;
  onUpdate: string | null;
}

/** Foreign-key constraints: named relationships of one table pair form one key; unnamed ones stand alone. */
export function foreignKeys(document: Pick<DiagramDocument, 'relationships'>): ForeignKey[] {
  const byKey = new Map<string, Relationship[]>();
  for (const relationship of document.relationships) {
    const group =
      relationship.name === null
        ? relationship.uuid
        : `${relationship.source_table}\u0000${relationship.target_table}\u0000${relationship.name}`;
    const list = byKey.get(group) ?? [];
    list.push(relationship);
    byKey.set(group, list);
  }
  return [...byKey.values()].map((pairs) => {
    const first = pairs[0] as Relationship;
    return {
      key: pairs
        .map((pair) => pair.uuid)
        .sort()
        .join(','),
      name: first.name,
      table: first.source_table,
      columns: pairs.map((pair) => pair.source_column),
      refTable: first.target_table,
      refColumns: pairs.map((pair) => pair.target_column),
      onDelete: first.on_delete,
      onUpdate: first.on_update,
    };
  });
}

export interface Key {
  /** The index record's uuid, or `flag:<kind>:<column>` for a key made from a column flag. */
  uuid: string;
  name: string;
  type: Index['type'];
  columns: string[];
  /** PostgreSQL: a UNIQUE constraint rather than a unique index (from the index record). */
  is_constraint?: boolean;
  /** Index method (from the index record); absent is the driver's default. */
  method?: Index['method'];
  note?: string;
}

/** Every key of a table: its index records, then keys for the flags no index record covers. */
export function tableKeys(table: Pick<DocumentTable, 'name' | 'columns' | 'indexes'>): Key[] {
  // The primary key is what the columns say when any says it: the primary index's columns that are still
  // marked, then marked columns the index does not list (a patch marks a column without editing the index).
  const marked = table.columns.filter((column) => column.is_primary_key).map((column) => column.name);
  const keys: Key[] = table.indexes.map((index) => {
    if (index.type !== 'primary' || marked.length === 0) return { ...index, columns: [...index.columns] };
    const kept = index.columns.filter((name) => marked.includes(name));
    return { ...index, columns: [...kept, ...marked.filter((name) => !kept.includes(name))] };
  });
  const bare = splitTableName(table.name)[1];
  const alone = (type: Index['type'], column: Column) =>
    keys.some((key) => key.type === type && key.columns.length === 1 && key.columns[0] === column.name);
  const primaryFlags = table.columns.filter((column) => column.is_primary_key).map((column) => column.name);
  if (!keys.some((key) => key.type === 'primary') && primaryFlags.length > 0)
    keys.push({ uuid: 'flag:primary', name: `${bare}_pkey`, type: 'primary', columns: primaryFlags });
  const primary = keys.find((key) => key.type === 'primary');
  for (const column of table.columns) {
    const primaryAlone = primary?.columns.length === 1 && primary.columns[0] === column.name;
    if (column.is_unique_key && !alone('unique', column) && !primaryAlone)
      keys.push({
        uuid: `flag:unique:${column.name}`,
        name: `${bare}_${column.name}_key`.slice(0, 63),
        type: 'unique',
        columns: [column.name],
      });
    if (column.is_index && !alone('index', column))
      keys.push({
        uuid: `flag:index:${column.name}`,
        name: `${bare}_${column.name}_idx`.slice(0, 63),
        type: 'index',
        columns: [column.name],
      });
  }
  return keys;
}

/**
 * Tables in dependency order: a table comes after the tables its foreign keys reference, where a cycle
 * allows; ties (and the members of a cycle) in name order.
 */
export function dependencyOrder(tables: DocumentTable[], keys: ForeignKey[]): DocumentTable[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const needs = new Map<string, Set<string>>(tables.map((table) => [table.name, new Set<string>()]));
  for (const key of keys)
    if (key.table !== key.refTable && byName.has(key.refTable)) needs.get(key.table)?.add(key.refTable);
  const remaining = [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const placed = new Set<string>();
  const order: DocumentTable[] = [];
  while (remaining.length > 0) {
    let at = remaining.findIndex((table) => [...(needs.get(table.name) ?? [])].every((n) => placed.has(n)));
    if (at < 0) at = 0;
    const [table] = remaining.splice(at, 1) as [DocumentTable];
    placed.add(table.name);
    order.push(table);
  }
  return order;
}
