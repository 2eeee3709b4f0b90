// What a column's type change can lose, and the check that finds the rows it would lose before the change
// runs. A migration never converts a value into a different one without saying so: every change that
// could cut, round or refuse a value is preceded by a check that stops the migration, naming the table,
// the column and (where the server can count) how many rows do not fit.
import { type Column, type Driver, lookupDataType } from '@dss/schema';
import type { Dialect } from './dialect';

/** Which rows would not survive the change. */
export type Check =
  | { kind: 'length'; length: number }
  | { kind: 'range'; min: string; max: string; fractions: boolean }
  | { kind: 'digits'; precision: number; scale: number }
  | { kind: 'values'; lost: string[] }
  | { kind: 'negative' }
  | { kind: 'rounds' }
  | { kind: 'approximate' }
  | { kind: 'not_null' };

export interface Loss {
  /** What values lose, in words: `values longer than 50 characters would be cut`. */
  what: string;
  /** The rows that would lose something, or null when every value loses (nothing to check for). */
  check: Check | null;
}

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

/** Digits of the widest value of an integer type (`smallint` 5). */
const INTEGER_DIGITS: Record<number, number> = { 1: 3, 2: 5, 3: 8, 4: 10, 8: 19 };

/** Fractional-second digits a temporal type keeps when it names none. */
const DEFAULT_FRACTION: Record<Driver, number> = { pgsql: 6, mysql: 0, sqlsrv: 7 };

function family(driver: Driver, column: Column): string | undefined {
  return lookupDataType(driver, column.driver_data_type_name)?.family;
}

/** The range of an integer column: MySQL `serial` is `bigint unsigned`. */
export function integerRange(driver: Driver, column: Column): [bigint, bigint] | null {
  const name = column.driver_data_type_name;
  if (driver === 'mysql' && name === 'serial') return [0n, 2n ** 64n - 1n];
  const bytes = INTEGER_BYTES[name];
  if (bytes === undefined) return null;
  const bits = BigInt(bytes * 8);
  if (driver === 'mysql' && column.is_unsigned) return [0n, 2n ** bits - 1n];
  return [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
}

/** True when the type is a display width only (`int(11)`, `bigint(20)`): MySQL integers. */
export function integerType(driver: Driver, column: Column): boolean {
  return family(driver, column) === 'integer';
}

/** The column's type with what does not change its values left out (a MySQL integer's display width). */
export function typeIdentity(driver: Driver, column: Column): string {
  const params = integerType(driver, column) ? null : (column.driver_data_type_params ?? null);
  return `${column.driver_data_type_name}|${JSON.stringify(params ?? {})}|${column.is_unsigned}`;
}

/** What the change of type from `before` to `after` can lose, or null when every value survives. */
export function lossOf(driver: Driver, before: Column, after: Column): Loss | null {
  const a = before.driver_data_type_params ?? {};
  const b = after.driver_data_type_params ?? {};
  if (a.array || b.array) return null;
  const from = family(driver, before);
  const to = family(driver, after);
  if (to === 'string') {
    if (typeof b.length !== 'number') return null;
    const longest =
      from === 'enum'
        ? Math.max(0, ...(a.values ?? []).map((value) => value.length))
        : from === 'string' && typeof a.length === 'number'
          ? a.length
          : Number.POSITIVE_INFINITY;
    if (b.length >= longest) return null;
    return {
      what: `values longer than ${b.length} characters would be cut`,
      check: { kind: 'length', length: b.length },
    };
  }
  if (to === 'enum' && from === 'enum') {
    const lost = (a.values ?? []).filter((value) => !(b.values ?? []).includes(value));
    if (lost.length === 0) return null;
    return {
      what: `rows holding ${lost.join(', ')} would lose their value`,
      check: { kind: 'values', lost },
    };
  }
  if (to === 'integer') {
    const range = integerRange(driver, after);
    if (range === null) return null;
    const fractions = from === 'decimal' || from === 'float';
    const previous = from === 'integer' ? integerRange(driver, before) : null;
    if (from === 'integer' && (previous === null || (previous[0] >= range[0] && previous[1] <= range[1])))
      return null;
    if (from !== 'integer' && !fractions) return null;
    return {
      what: `values outside ${range[0]} … ${range[1]} would not fit${fractions ? ' and fractions would be rounded' : ''}`,
      check: { kind: 'range', min: String(range[0]), max: String(range[1]), fractions },
    };
  }
  if (to === 'decimal' && typeof b.precision === 'number') {
    const scale = b.scale ?? 0;
    const whole = b.precision - scale;
    let rounds = false;
    let overflows = false;
    if (from === 'decimal') {
      if (typeof a.precision !== 'number') rounds = overflows = true;
      else {
        rounds = scale < (a.scale ?? 0);
        overflows = whole < a.precision - (a.scale ?? 0);
      }
    } else if (from === 'float') rounds = overflows = true;
    else if (from === 'integer') {
      const range = integerRange(driver, before);
      const bytes = INTEGER_BYTES[before.driver_data_type_name] ?? 8;
      overflows = range === null || whole < (INTEGER_DIGITS[bytes] ?? 20) + (range[1] > 2n ** 63n ? 1 : 0);
    }
    if (!rounds && !overflows) return null;
    const parts = [
      ...(overflows ? [`values of ${whole + 1} or more integer digits would not fit`] : []),
      ...(rounds ? [`values with more than ${scale} decimal places would be rounded`] : []),
    ];
    return { what: parts.join(', '), check: { kind: 'digits', precision: b.precision, scale } };
  }
  if (to === 'float' && from === 'float') {
    const wide = (column: Column) => !/^(real|float4|float)$/.test(column.driver_data_type_name);
    if (!wide(before) || wide(after)) return null;
    return { what: 'values would lose precision (double → single)', check: { kind: 'rounds' } };
  }
  // An exact number (integer or decimal) made a float keeps only the digits the float holds (MySQL
  // shows a FLOAT with 6 significant digits, so 16777217 reads back as 16777200).
  if (to === 'float' && (from === 'integer' || from === 'decimal')) {
    const single =
      driver === 'mysql'
        ? after.driver_data_type_name === 'float'
        : /^(real|float4)$/.test(after.driver_data_type_name);
    const digits = single ? (driver === 'mysql' ? 'about 6' : 'about 7') : 'about 15';
    return {
      what: `values with more significant digits than ${after.driver_data_type_name} keeps (${digits}) would be rounded`,
      // SQL Server writes floats in no exact form to compare with: the loss is not checked for.
      check: driver === 'sqlsrv' ? null : { kind: 'approximate' },
    };
  }
  if ((to === 'datetime' || to === 'time') && from === to) {
    const kept = (params: typeof a) =>
      typeof params.precision === 'number' ? params.precision : DEFAULT_FRACTION[driver];
    if (kept(b) >= kept(a)) return null;
    return {
      what: `fractional seconds beyond ${kept(b)} digits would be rounded`,
      check: { kind: 'rounds' },
    };
  }
  if (to === 'date' && from === 'datetime')
    return { what: 'the time of day would be dropped', check: { kind: 'rounds' } };
  if (to === 'time' && from === 'datetime')
    return { what: 'the date of every value would be dropped', check: null };
  if (driver === 'mysql' && !before.is_unsigned && after.is_unsigned && from === to)
    return { what: 'negative values would not fit', check: { kind: 'negative' } };
  return null;
}

/** The condition a row breaks: the rows the check counts (PostgreSQL, SQL Server) or refuses (MySQL). */
export function violation(
  dialect: Dialect,
  table: string,
  before: Column,
  after: Column,
  check: Check,
): string {
  const c = dialect.ident(before.name);
  const pg = dialect.driver === 'pgsql';
  switch (check.kind) {
    case 'length':
      return pg
        ? `char_length(CAST(${c} AS text)) > ${check.length}`
        : `${dialect.driver === 'mysql' ? 'CHAR_LENGTH' : 'LEN'}(${c}) > ${check.length}`;
    case 'range':
      return `(${c} < ${check.min} OR ${c} > ${check.max}${check.fractions ? ` OR ${c} <> ROUND(${c})` : ''})`;
    case 'digits': {
      const number = pg ? `CAST(${c} AS numeric)` : c;
      const limit = `1${'0'.repeat(check.precision - check.scale)}`;
      return `(ABS(${number}) >= ${limit} OR ${number} <> ROUND(${number}, ${check.scale}))`;
    }
    case 'values':
      return `${pg ? `CAST(${c} AS text)` : c} IN (${check.lost.map(dialect.string).join(', ')})`;
    case 'negative':
      return `${c} < 0`;
    case 'not_null':
      return `${c} IS NULL`;
    case 'rounds':
      return `${c} <> CAST(${c} AS ${castType(dialect, table, after)})`;
    case 'approximate':
      // The value as the float type writes it, read back exactly: compared in floating point, the
      // server would round both sides alike and find no difference.
      return pg
        ? `CAST(CAST(CAST(${c} AS ${dialect.type(table, after)}) AS text) AS numeric) <> ${c}`
        : `CAST(CAST(CAST(${c} AS ${castType(dialect, table, after)}) AS CHAR) AS DECIMAL(65,30)) <> ${c}`;
  }
}

/** The type a value is cast to for comparison: MySQL's CAST knows only a few type names. */
function castType(dialect: Dialect, table: string, column: Column): string {
  if (dialect.driver !== 'mysql') return dialect.type(table, column);
  const precision = column.driver_data_type_params?.precision;
  const fraction = typeof precision === 'number' ? `(${precision})` : '';
  switch (family(dialect.driver, column)) {
    case 'datetime':
      return `DATETIME${fraction}`;
    case 'time':
      return `TIME${fraction}`;
    case 'date':
      return 'DATE';
    case 'float':
      return /^(float|real)$/.test(column.driver_data_type_name) ? 'FLOAT' : 'DOUBLE';
    default:
      return dialect.type(table, column);
  }
}
