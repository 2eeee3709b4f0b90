// Small schemas for the lint tests, built field by field so each test shows what it changes.
import type { Column, Driver, Relationship, Table } from '../src/model';
import type { LintSchema } from '../src/lint';

export function col(name: string, type = 'integer', extra: Partial<Column> = {}): Column {
  return {
    uuid: `col-${name}`,
    name,
    driver_data_type_name: type,
    driver_data_type_params: null,
    default: null,
    is_nullable: false,
    is_primary_key: false,
    is_unique_key: false,
    is_index: false,
    is_auto_increment: false,
    is_unsigned: false,
    comment: null,
    ...extra,
  };
}

export function tbl(name: string, columns: Column[], indexes: Table['indexes'] = []): Table {
  return {
    uuid: `tbl-${name}`,
    name,
    comment: null,
    columns: columns.map((column) => ({ ...column, uuid: `${name}.${column.name}` })),
    indexes,
  };
}

export function fk(source: string, target: string, name: string | null = null): Relationship {
  const [sourceTable, sourceColumn] = source.split('.') as [string, string];
  const [targetTable, targetColumn] = target.split('.') as [string, string];
  return {
    uuid: `rel-${source}-${target}`,
    name,
    type: 'many-to-one',
    source_table: sourceTable,
    source_column: sourceColumn,
    target_table: targetTable,
    target_column: targetColumn,
    on_delete: null,
    on_update: null,
  };
}

/** users(id pk) ← orders(id pk, user_id indexed, NOT NULL): clean under the default rules. */
export function shop(driver: Driver = 'pgsql'): LintSchema {
  return {
    driver,
    tables: [
      tbl('users', [
        col('id', 'integer', { is_primary_key: true }),
        col('email', 'character varying', { driver_data_type_params: { length: 255 } }),
      ]),
      tbl('orders', [
        col('id', 'integer', { is_primary_key: true }),
        col('user_id', 'integer', { is_index: true }),
      ]),
    ],
    relationships: [fk('orders.user_id', 'users.id')],
  };
}
