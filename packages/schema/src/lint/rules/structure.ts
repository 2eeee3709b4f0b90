// Rules about one table's shape: a primary key, and not too many columns.
import type { LintRule } from '../types';
import { hasPrimaryKey } from '../schema-facts';

export const tableWithoutPrimaryKey: LintRule = {
  id: 'table-without-primary-key',
  defaultSeverity: 'error',
  documentation:
    'Every table needs a primary key: without one, rows cannot be addressed, replicated or updated safely.',
  check: ({ schema }) =>
    schema.tables
      .filter((table) => !hasPrimaryKey(table))
      .map((table) => ({ table: table.name, message: `table "${table.name}" has no primary key` })),
};

export const tooWideTable: LintRule = {
  id: 'too-wide-table',
  defaultSeverity: 'warning',
  documentation:
    'A table with more columns than the team allows (max_columns, 50 by default) usually mixes several entities.',
  check: ({ schema, config }) =>
    schema.tables
      .filter((table) => table.columns.length > config.max_columns)
      .map((table) => ({
        table: table.name,
        message: `table "${table.name}" has ${table.columns.length} columns, more than the ${config.max_columns} allowed`,
      })),
};
