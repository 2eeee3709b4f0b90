// CHECK conditions of a patch. The condition is SQL text written into every export and migration inside
// `CHECK (…)`, so it must stay one expression there: parentheses balanced and no `;` or comment outside
// a quoted string or name. What the expression means is the server's to judge.
import { lookupDataType } from '../catalog/catalog';
import type { Driver, IndexMethod } from '../model';
import type { TablePlan } from './table-plan';
import type { ProblemList } from './problem-list';
import type { Located, ShapedTable } from './shaped-types';

/** Why `expression` could not stay inside `CHECK (…)`, or null when it can. */
export function checkExpressionProblem(expression: string): string | null {
  let depth = 0;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i] as string;
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < expression.length && !(expression[j] === close && expression[j + 1] !== close))
        j += expression[j] === close || expression[j] === '\\' ? 2 : 1;
      if (j >= expression.length) return `a quoted part opened with ${c} is not closed`;
      i = j;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return 'a closing parenthesis has no opening one';
    else if (c === ';') return 'a semicolon would end the statement';
    else if ((c === '-' && expression[i + 1] === '-') || (c === '/' && expression[i + 1] === '*'))
      return 'a comment would hide the rest of the statement';
  }
  return depth === 0 ? null : 'a parenthesis is not closed';
}

export function checkCheckExpressions(tables: readonly Located<ShapedTable>[], problems: ProblemList): void {
  for (const { entry, path } of tables)
    for (const [position, check] of (entry.checks ?? []).entries()) {
      const problem = checkExpressionProblem(check.expression);
      if (problem !== null)
        problems.add(`${path}.checks[${position}].expression`, `CHECK ${check.name}: ${problem}`);
    }
}

/** Index methods each driver has (SQL Server's clustered/nonclustered are not methods). */
export const DRIVER_INDEX_METHODS: Record<Driver, readonly IndexMethod[]> = {
  pgsql: ['btree', 'hash', 'gin', 'gist', 'brin', 'spgist'],
  mysql: ['btree', 'hash', 'fulltext', 'spatial'],
  sqlsrv: ['btree'],
};

const CHARSET_NAME = /^[A-Za-z0-9_]+$/;
const COLLATION_NAME = /^[A-Za-z0-9_.@-]+$/;
const TYPE_NAME = /^[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)?$/;

/**
 * Names a patch gives that the exports write into SQL (collations, charsets, enum type names) and index
 * methods: each must be a plain name, and the method one the diagram's driver has.
 */
export function checkWrittenNames(
  tables: readonly Located<ShapedTable>[],
  driver: Driver,
  problems: ProblemList,
): void {
  const methods = DRIVER_INDEX_METHODS[driver];
  for (const { entry, path } of tables) {
    if (entry.charset !== undefined && entry.charset !== '' && !CHARSET_NAME.test(entry.charset))
      problems.add(`${path}.charset`, 'a character set name has only letters, digits and _');
    if (entry.collation !== undefined && entry.collation !== '' && !CHARSET_NAME.test(entry.collation))
      problems.add(`${path}.collation`, 'a table collation name has only letters, digits and _');
    for (const [position, column] of (entry.columns ?? []).entries()) {
      if (column.collation !== undefined && column.collation !== '' && !COLLATION_NAME.test(column.collation))
        problems.add(
          `${path}.columns[${position}].collation`,
          'a collation name has only letters, digits and _ - . @',
        );
      if (column.enum_name !== undefined && column.enum_name !== '' && !TYPE_NAME.test(column.enum_name))
        problems.add(
          `${path}.columns[${position}].enum_name`,
          'an enum type name is a name (letters, digits, _ and $, not starting with a digit), optionally schema.name',
        );
    }
    for (const [position, index] of (entry.indexes ?? []).entries()) {
      if (index.method === undefined) continue;
      if (!methods.includes(index.method))
        problems.add(
          `${path}.indexes[${position}].method`,
          `the ${driver} driver has no ${index.method} index (it has ${methods.join(', ')})`,
        );
      else if (index.type !== 'index' && index.method !== 'btree' && index.method !== 'hash')
        problems.add(
          `${path}.indexes[${position}].method`,
          `a ${index.type} key cannot be a ${index.method} index`,
        );
    }
  }
}

/** True when a column of this type takes a collation: character types (and MySQL enum and set). */
export function takesCollation(driver: Driver, typeName: string): boolean {
  const family = lookupDataType(driver, typeName)?.family;
  return family === 'string' || (driver === 'mysql' && family === 'enum');
}

/** A collation on a column whose type has none (a number, a date) is refused at its path. */
export function checkCollations(plans: readonly TablePlan[], driver: Driver, problems: ProblemList): void {
  for (const plan of plans)
    for (const { located, dataType } of plan.columns ?? []) {
      const collation = located.entry.collation;
      if (collation !== undefined && collation !== '' && !takesCollation(driver, dataType.name))
        problems.add(`${located.path}.collation`, `a ${dataType.name} column has no collation`);
    }
}
