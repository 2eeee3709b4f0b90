// Relationships the database would refuse as foreign keys. A foreign key is the relationships of one table
// pair that share a name (a composite key is stored as one relationship per column pair), or one unnamed
// relationship: the grouping the SQL export writes. The database refuses it when
// - its target columns are not, as a set, the columns of a primary key or unique key of the target table
//   (the primary key is the columns marked `is_primary_key`; unique keys are unique and primary index
//   records, and single columns marked `is_unique_key`), or
// - a pair of columns has types the driver cannot compare in a foreign key (see `typeMismatch`).
import { lookupDataType } from './catalog/catalog';
import type { Column, DiagramDocument, Driver, Relationship, Table } from './model';

export type RelationshipIssueKind = 'target_not_key' | 'incompatible_types';

export interface RelationshipIssue {
  kind: RelationshipIssueKind;
  /** Stable across renames: the kind, the relationships' uuids and (for types) the columns' uuids. */
  key: string;
  /** The relationships of the foreign key (one, or one per column pair of a composite key). */
  relationships: Relationship[];
  /** Names the foreign key, its columns and what the database would say. */
  message: string;
}

/** The foreign keys of a document: relationships grouped as the SQL export groups them. */
export function foreignKeyGroups(relationships: readonly Relationship[]): Relationship[][] {
  const groups = new Map<string, Relationship[]>();
  for (const relationship of relationships) {
    const key =
      relationship.name === null
        ? `\u0001${relationship.uuid}`
        : `${relationship.source_table}\u0000${relationship.target_table}\u0000${relationship.name}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [relationship]);
    else group.push(relationship);
  }
  return [...groups.values()];
}

/** Identity of a foreign key across two versions of a document: its relationships' uuids. */
export function foreignKeyIdentity(group: readonly Relationship[]): string {
  return group
    .map((relationship) => relationship.uuid)
    .sort()
    .join(',');
}

/**
 * Every foreign key of `document` the database would refuse, with the reason. Relationships whose
 * endpoints are missing are left to validation. Linear in the relationships plus the columns they name.
 */
export function relationshipIssues(
  document: Pick<DiagramDocument, 'driver' | 'relationships'> & { tables: readonly Table[] },
  groups: readonly Relationship[][] = foreignKeyGroups(document.relationships),
): RelationshipIssue[] {
  const tables = new Map(document.tables.map((table) => [table.name, table]));
  const issues: RelationshipIssue[] = [];
  for (const group of groups) {
    const first = group[0]!;
    const source = tables.get(first.source_table);
    const target = tables.get(first.target_table);
    if (source === undefined || target === undefined) continue;
    const pairs: [Column, Column][] = [];
    for (const relationship of group) {
      const from = columnOf(source, relationship.source_column);
      const to = columnOf(target, relationship.target_column);
      if (from === undefined || to === undefined) break;
      pairs.push([from, to]);
    }
    if (pairs.length !== group.length) continue;
    // Names and identities are built only for a refused key: most keys are fine, and a diagram has thousands.
    const targetColumns = pairs.map(([, to]) => to.name);
    if (!isKey(target, targetColumns))
      issues.push({
        kind: 'target_not_key',
        key: `target_not_key:${foreignKeyIdentity(group)}`,
        relationships: group,
        message: `relationship ${describeKey(group)}: ${target.name}(${targetColumns.join(', ')}) is not a primary key or unique key of ${target.name}, and a foreign key must reference one`,
      });
    for (const [from, to] of pairs) {
      const reason = typeMismatch(document.driver, from, to);
      if (reason !== null)
        issues.push({
          kind: 'incompatible_types',
          key: `incompatible_types:${foreignKeyIdentity(group)}:${from.uuid}:${to.uuid}`,
          relationships: group,
          message: `relationship ${describeKey(group)}: ${first.source_table}.${from.name} (${typeText(from)}) and ${first.target_table}.${to.name} (${typeText(to)}) cannot be a foreign key on ${DRIVER_NAMES[document.driver]}: ${reason}`,
        });
    }
  }
  return issues;
}

const DRIVER_NAMES: Record<Driver, string> = { mysql: 'MySQL', pgsql: 'PostgreSQL', sqlsrv: 'SQL Server' };

function columnOf(table: Table, name: string): Column | undefined {
  return table.columns.find((column) => column.name === name);
}

function describeKey(group: readonly Relationship[]): string {
  const first = group[0]!;
  const columns = (side: 'source_column' | 'target_column') => group.map((r) => r[side]).join(', ');
  return group.length === 1
    ? `${first.source_table}.${first.source_column} -> ${first.target_table}.${first.target_column}`
    : `${first.name} ${first.source_table}(${columns('source_column')}) -> ${first.target_table}(${columns('target_column')})`;
}

/** Whether `columns` (as a set) are the primary key or a unique key of `table`. */
export function isKey(table: Table, columns: readonly string[]): boolean {
  const wanted = new Set(columns);
  if (wanted.size !== columns.length) return false;
  const same = (names: readonly string[]) =>
    names.length === wanted.size && names.every((n) => wanted.has(n));
  const primary = table.columns.filter((column) => column.is_primary_key).map((column) => column.name);
  if (primary.length > 0 && same(primary)) return true;
  if (columns.length === 1 && columnOf(table, columns[0]!)?.is_unique_key === true) return true;
  return table.indexes.some(
    (index) =>
      (index.type === 'unique' || (index.type === 'primary' && primary.length === 0)) && same(index.columns),
  );
}

function typeText(column: Column): string {
  const params = column.driver_data_type_params;
  const numbers = [params?.length, params?.precision, params?.scale].filter((value) => value !== undefined);
  const text = `${column.driver_data_type_name}${numbers.length > 0 ? `(${numbers.join(',')})` : ''}`;
  return `${text}${column.is_unsigned ? ' unsigned' : ''}${params?.array ? '[]' : ''}`;
}

const families: Record<Driver, Map<string, string>> = {
  mysql: new Map(),
  pgsql: new Map(),
  sqlsrv: new Map(),
};

/** The catalog family of a column's type, memoised per driver (diagrams repeat a handful of type names). */
function familyOf(driver: Driver, column: Column): string {
  const name = column.driver_data_type_name;
  let family = families[driver].get(name);
  if (family === undefined) {
    family = lookupDataType(driver, name)?.family ?? 'other';
    if (families[driver].size < 10_000) families[driver].set(name, family);
  }
  return family;
}

const sameValues = (a: Column, b: Column) =>
  JSON.stringify(a.driver_data_type_params?.values ?? []) ===
  JSON.stringify(b.driver_data_type_params?.values ?? []);

/**
 * Why the driver refuses a foreign key from column `a` to column `b`, or null when it accepts it. Both must
 * be of the same type family (integer, string, …), and arrays only match arrays; then, per driver:
 * - MySQL / MariaDB (InnoDB: "the size and sign of fixed precision types must be the same"): integers the
 *   same type (int ≠ bigint) and signedness; decimals the same precision, scale and signedness; floats the
 *   same type; strings and binaries of any length; enum and set the same values; anything else the same type.
 * - PostgreSQL (the types need a common btree operator family): any integer with any integer, any
 *   character type with any other, real with double precision, timestamp with timestamptz; enums the same
 *   values (one enum type); anything else the same type (numeric ≠ money, time ≠ timetz).
 * - SQL Server (the same data type): the same type; strings and binaries of any length; decimals the same
 *   precision and scale.
 */
export function typeMismatch(driver: Driver, a: Column, b: Column): string | null {
  const familyA = familyOf(driver, a);
  const familyB = familyOf(driver, b);
  if (Boolean(a.driver_data_type_params?.array) !== Boolean(b.driver_data_type_params?.array))
    return 'one is an array and the other is not';
  if (familyA !== familyB) return `the types are of different families (${familyA}, ${familyB})`;
  const sameName = a.driver_data_type_name === b.driver_data_type_name;
  const sameScale =
    a.driver_data_type_params?.precision === b.driver_data_type_params?.precision &&
    a.driver_data_type_params?.scale === b.driver_data_type_params?.scale;
  if (familyA === 'enum')
    return sameName && sameValues(a, b) ? null : 'enum columns must have the same values';
  if (driver === 'mysql') {
    if (familyA === 'string' || familyA === 'binary') return null;
    if (!sameName) return 'the columns must be of the same type';
    if (familyA === 'integer' || familyA === 'decimal' || familyA === 'float') {
      if (a.is_unsigned !== b.is_unsigned) return 'one is unsigned and the other is not';
      if (familyA === 'decimal' && !sameScale) return 'decimals must have the same precision and scale';
    }
    return null;
  }
  if (driver === 'pgsql') {
    if (['integer', 'string', 'float', 'datetime'].includes(familyA)) return null;
    return sameName ? null : 'the columns must be of the same type';
  }
  if (familyA === 'string' || familyA === 'binary')
    return sameName ? null : 'the columns must be of the same type';
  if (!sameName) return 'the columns must be of the same type';
  if (familyA === 'decimal' && !sameScale) return 'decimals must have the same precision and scale';
  return null;
}
