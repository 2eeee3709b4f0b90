// Rules about names: the team's convention (case, singular or plural tables, prefix) and the words the
// driver reserves.
import type { Table } from '../../model';
import { isReservedWord } from '../reserved-words';
import { bareName } from '../schema-facts';
import type { LintConfig, LintHit, LintRule } from '../types';

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** English plurals as table names use them: `users`, `categories`, `addresses`; not `status`, `analysis`. */
function looksPlural(name: string): boolean {
  const last = name.split('_').at(-1) ?? name;
  return /s$/i.test(last) && !/(ss|us|is)$/i.test(last);
}

function tableNameProblems(name: string, naming: LintConfig['naming']): string[] {
  const problems: string[] = [];
  if (naming.case === 'snake_case' && !SNAKE_CASE.test(name)) problems.push('is not snake_case');
  if (naming.prefix !== '' && !name.startsWith(naming.prefix))
    problems.push(`does not start with "${naming.prefix}"`);
  if (naming.tables === 'singular' && looksPlural(name))
    problems.push('is plural, and table names are singular');
  if (naming.tables === 'plural' && !looksPlural(name))
    problems.push('is singular, and table names are plural');
  return problems;
}

function columnHits(table: Table, naming: LintConfig['naming']): LintHit[] {
  if (naming.case !== 'snake_case') return [];
  return table.columns
    .filter((column) => !SNAKE_CASE.test(column.name))
    .map((column) => ({
      table: table.name,
      column: column.name,
      message: `column "${table.name}"."${column.name}" is not snake_case`,
    }));
}

export const namingConvention: LintRule = {
  id: 'naming-convention',
  defaultSeverity: 'warning',
  documentation:
    "Table and column names follow the team's convention (naming.case, naming.tables singular/plural, naming.prefix).",
  check: ({ schema, config }) =>
    schema.tables.flatMap((table) => [
      ...tableNameProblems(bareName(table.name), config.naming).map((problem) => ({
        table: table.name,
        message: `table name "${table.name}" ${problem}`,
      })),
      ...columnHits(table, config.naming),
    ]),
};

export const reservedWord: LintRule = {
  id: 'reserved-word',
  defaultSeverity: 'warning',
  documentation:
    "A table or column named with a word the driver reserves must be quoted in every statement, and tools that don't quote break.",
  check: ({ schema }) =>
    schema.tables.flatMap((table) => {
      const hits: LintHit[] = [];
      if (isReservedWord(schema.driver, bareName(table.name)))
        hits.push({
          table: table.name,
          message: `table name "${table.name}" is a reserved word of ${schema.driver}`,
        });
      for (const column of table.columns)
        if (isReservedWord(schema.driver, column.name))
          hits.push({
            table: table.name,
            column: column.name,
            message: `column name "${table.name}"."${column.name}" is a reserved word of ${schema.driver}`,
          });
      return hits;
    }),
};
