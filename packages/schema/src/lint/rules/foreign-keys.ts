// Rules about foreign keys: an index to look children up by, the same type on both sides, and NOT NULL
// where the parent is required.
import { lookupDataType } from '../../catalog';
import type { Column, Driver } from '../../model';
import { columnOf, foreignKeysOf, hasLeadingIndex, tableIndex } from '../schema-facts';
import type { LintHit, LintRule } from '../types';

export const foreignKeyWithoutIndex: LintRule = {
  id: 'foreign-key-without-index',
  defaultSeverity: 'warning',
  documentation:
    'The columns of a foreign key should lead some index, or every delete of a parent scans the child table (MySQL creates one itself, so the rule is silent there).',
  check: ({ schema }) => {
    if (schema.driver === 'mysql') return [];
    const tables = tableIndex(schema);
    return foreignKeysOf(schema).flatMap((key) => {
      const table = tables.get(key.table);
      if (!table || hasLeadingIndex(table, key.columns)) return [];
      const columns = key.columns.join(', ');
      return [
        {
          table: key.table,
          column: key.columns[0],
          message: `foreign key "${key.table}" (${columns}) → "${key.refTable}" has no index on (${columns})`,
        },
      ];
    });
  },
};

/** Bytes of each integer type, by catalog name, so `int` → `bigint` reads as a width difference. */
const INTEGER_BYTES: Record<string, number> = {
  tinyint: 1,
  smallint: 2,
  smallserial: 2,
  mediumint: 3,
  int: 4,
  integer: 4,
  serial: 4,
  bigint: 8,
  bigserial: 8,
};

function canonicalType(driver: Driver, column: Column): string {
  return (
    lookupDataType(driver, column.driver_data_type_name)?.name ?? column.driver_data_type_name.toLowerCase()
  );
}

function widthOf(driver: Driver, column: Column): string {
  const name = canonicalType(driver, column);
  if (INTEGER_BYTES[name] !== undefined) return `integer(${INTEGER_BYTES[name]})`;
  const params = column.driver_data_type_params;
  return `${name}(${params?.length ?? ''},${params?.precision ?? ''},${params?.scale ?? ''})`;
}

/** Why two columns of compatible types still differ, or null when they match. */
function typeDifference(driver: Driver, source: Column, target: Column): string | null {
  if (widthOf(driver, source) !== widthOf(driver, target)) return 'width';
  if (source.is_unsigned !== target.is_unsigned) return 'signedness';
  return null;
}

const typeText = (column: Column) => {
  const params = column.driver_data_type_params;
  const size = [params?.length, params?.precision, params?.scale].filter((part) => part !== undefined);
  return `${column.driver_data_type_name}${size.length > 0 ? `(${size.join(',')})` : ''}${column.is_unsigned ? ' unsigned' : ''}`;
};

export const foreignKeyTypeMismatch: LintRule = {
  id: 'foreign-key-type-mismatch',
  defaultSeverity: 'error',
  documentation:
    'A foreign key column should have exactly the type of the column it references (same width and signedness), or values of one side may not fit the other.',
  check: ({ schema }) => {
    const tables = tableIndex(schema);
    return schema.relationships.flatMap((relationship): LintHit[] => {
      const source = columnOf(tables.get(relationship.source_table), relationship.source_column);
      const target = columnOf(tables.get(relationship.target_table), relationship.target_column);
      if (!source || !target) return [];
      const difference = typeDifference(schema.driver, source, target);
      if (difference === null) return [];
      return [
        {
          table: relationship.source_table,
          column: relationship.source_column,
          message: `column "${relationship.source_table}"."${relationship.source_column}" (${typeText(source)}) differs in ${difference} from the column it references, "${relationship.target_table}"."${relationship.target_column}" (${typeText(target)})`,
        },
      ];
    });
  },
};

export const nullableForeignKey: LintRule = {
  id: 'nullable-foreign-key',
  defaultSeverity: 'warning',
  documentation:
    'A foreign key to a required parent (required_parents; every parent when unset) should be NOT NULL, or children without a parent can exist.',
  check: ({ schema, config }) => {
    const tables = tableIndex(schema);
    const required = config.required_parents === null ? null : new Set(config.required_parents);
    return schema.relationships.flatMap((relationship): LintHit[] => {
      if (required !== null && !required.has(relationship.target_table)) return [];
      const source = columnOf(tables.get(relationship.source_table), relationship.source_column);
      if (!source?.is_nullable) return [];
      return [
        {
          table: relationship.source_table,
          column: relationship.source_column,
          message: `column "${relationship.source_table}"."${relationship.source_column}" references the required parent "${relationship.target_table}" but allows NULL`,
        },
      ];
    });
  },
};
