// Changes that lose data or fail on existing rows, flagged for the reviewer of a change (a proposal, a
// migration). Records are matched by uuid, as the diff does, so a rename is not a drop.
import type { Column, DataTypeParams } from '../../model';
import type { LintHit, LintRule } from '../types';

const INTEGER_ORDER = [
  'tinyint',
  'smallint',
  'smallserial',
  'mediumint',
  'int',
  'integer',
  'serial',
  'bigint',
  'bigserial',
];
const integerRank = (name: string) => {
  const position = INTEGER_ORDER.indexOf(name.toLowerCase());
  // smallint/smallserial, int/integer/serial and bigint/bigserial are the same width.
  return position < 0 ? null : [0, 1, 1, 2, 3, 3, 3, 4, 4][position];
};

const smaller = (before: number | 'max' | undefined, after: number | 'max' | undefined) =>
  typeof after === 'number' && (before === 'max' || (typeof before === 'number' && after < before));

function narrows(before: Column, after: Column): boolean {
  const [rankBefore, rankAfter] = [
    integerRank(before.driver_data_type_name),
    integerRank(after.driver_data_type_name),
  ];
  if (rankBefore != null && rankAfter != null && rankAfter < rankBefore) return true;
  const [was, now]: (DataTypeParams | null)[] = [
    before.driver_data_type_params,
    after.driver_data_type_params,
  ];
  return (
    smaller(was?.length, now?.length) ||
    smaller(was?.precision, now?.precision) ||
    smaller(was?.scale, now?.scale) ||
    (now?.values !== undefined && (was?.values ?? []).some((value) => !now.values?.includes(value)))
  );
}

const requiresValue = (column: Column) =>
  !column.is_nullable && column.default === null && !column.is_auto_increment;

export const destructiveChange: LintRule = {
  id: 'destructive-change',
  defaultSeverity: 'warning',
  documentation:
    'Dropping a table or column, narrowing a type, or adding NOT NULL without a default loses data or fails on existing rows: review it with the data in mind.',
  check: ({ schema, before }) => {
    if (before === null) return [];
    const hits: LintHit[] = [];
    const afterTables = new Map(schema.tables.map((table) => [table.uuid, table]));
    for (const old of before.tables) {
      const table = afterTables.get(old.uuid);
      if (!table) {
        hits.push({ table: old.name, message: `table "${old.name}" is dropped, with its data` });
        continue;
      }
      const afterColumns = new Map(table.columns.map((column) => [column.uuid, column]));
      const beforeColumns = new Set(old.columns.map((column) => column.uuid));
      for (const column of old.columns) {
        const now = afterColumns.get(column.uuid);
        const at = { table: table.name, column: now?.name ?? column.name };
        if (!now)
          hits.push({ ...at, message: `column "${table.name}"."${column.name}" is dropped, with its data` });
        else if (narrows(column, now))
          hits.push({
            ...at,
            message: `column "${table.name}"."${now.name}" is narrowed; longer values would be cut or refused`,
          });
        else if (column.is_nullable && requiresValue(now))
          hits.push({
            ...at,
            message: `column "${table.name}"."${now.name}" becomes NOT NULL without a default; rows holding NULL make it fail`,
          });
      }
      for (const column of table.columns)
        if (!beforeColumns.has(column.uuid) && requiresValue(column))
          hits.push({
            table: table.name,
            column: column.name,
            message: `column "${table.name}"."${column.name}" is added NOT NULL without a default; existing rows make it fail`,
          });
    }
    return hits;
  },
};
