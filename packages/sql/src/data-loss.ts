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
  | { kind: 'not_null' }
  // MySQL/MariaDB only:
  /** Values longer than `length` bytes; `exact`: any length but `length` (a BINARY(n) pads the shorter). */
  | { kind: 'bytes'; length: number; exact: boolean }
  /** Values outside TIMESTAMP's range in the session's time zone (or in a daylight-saving gap). */
  | { kind: 'timestamp'; precision: number | null }
  /** Values YEAR does not keep as they are: numbers, or strings that are no four-digit year. */
  | { kind: 'year'; source: 'number' | 'string'; fractions: boolean }
  /** Every value: MariaDB converts no date to YEAR. */
  | { kind: 'present' }
  /** SET values that hold one of these members. */
  | { kind: 'members'; lost: string[] }
  /** Values that are not exactly one of these (a string or SET made an ENUM). */
  | { kind: 'not_in'; values: string[] }
  /** BIT values wider than `length` bits. */
  | { kind: 'bits'; length: number }
  /** Strings that are no number, or whose number DECIMAL(precision, scale) cannot keep. */
  | { kind: 'number_text'; precision: number; scale: number }
  /** Strings ending in a space, which CHAR strips (or longer than `length` characters). */
  | { kind: 'trailing_space'; length: number | null }
  /** Rows any of these checks finds. */
  | { kind: 'any_of'; checks: Check[] };

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
  // MySQL's BOOLEAN is TINYINT(1): it holds -128 … 127, and refuses the rest.
  if (driver === 'mysql' && name === 'boolean') return [-128n, 127n];
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
  const loss = typeLoss(driver, before, after);
  // MySQL: a number made UNSIGNED refuses a negative value, across families too (int → decimal unsigned).
  const numbers = ['integer', 'decimal', 'float'];
  if (
    driver !== 'mysql' ||
    before.is_unsigned ||
    !after.is_unsigned ||
    !numbers.includes(family(driver, before) ?? '') ||
    !numbers.includes(family(driver, after) ?? '') ||
    loss?.check?.kind === 'negative' ||
    (loss?.check?.kind === 'range' && loss.check.min === '0')
  )
    return loss;
  if (loss === null) return { what: 'negative values would not fit', check: { kind: 'negative' } };
  return {
    what: `negative values would not fit, ${loss.what}`,
    check: loss.check === null ? null : { kind: 'any_of', checks: [{ kind: 'negative' }, loss.check] },
  };
}

function typeLoss(driver: Driver, before: Column, after: Column): Loss | null {
  const a = before.driver_data_type_params ?? {};
  const b = after.driver_data_type_params ?? {};
  if (a.array || b.array) return null;
  const from = family(driver, before);
  const to = family(driver, after);
  if (driver === 'mysql') {
    const loss = mysqlLoss(before, after, from, to);
    if (loss !== undefined) return loss;
  }
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
  if (to === 'integer' || (driver === 'mysql' && after.driver_data_type_name === 'boolean')) {
    const range = integerRange(driver, after);
    if (range === null) return null;
    const fractions = from === 'decimal' || from === 'float';
    const exact = from === 'integer' || (driver === 'mysql' && from === 'boolean');
    const previous = exact ? integerRange(driver, before) : null;
    if (exact && (previous === null || (previous[0] >= range[0] && previous[1] <= range[1]))) return null;
    if (!exact && !fractions) return null;
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

/** MySQL: the bytes a TEXT or BLOB type holds (`text(n)`, `blob(n)`: the smallest that holds n). */
const LOB_BYTES: Record<string, number> = {
  tinytext: 255,
  tinyblob: 255,
  text: 65_535,
  blob: 65_535,
  mediumtext: 16_777_215,
  mediumblob: 16_777_215,
  longtext: 4_294_967_295,
  longblob: 4_294_967_295,
};

/** MySQL: the most bytes a string or binary column can hold (4 a character: utf8mb4), or Infinity. */
function byteCapacity(column: Column, family: string | undefined): number {
  const name = column.driver_data_type_name;
  const params = column.driver_data_type_params ?? {};
  const length = typeof params.length === 'number' ? params.length : null;
  const perCharacter = family === 'string' ? 4 : 1;
  if (name in LOB_BYTES) {
    if (length === null) return LOB_BYTES[name] as number;
    const bytes = length * perCharacter;
    return bytes <= 255 ? 255 : bytes <= 65_535 ? 65_535 : bytes <= 16_777_215 ? 16_777_215 : 4_294_967_295;
  }
  if (family === 'enum' && name === 'enum')
    return Math.max(0, ...(params.values ?? []).map((value) => value.length)) * 4;
  if (length !== null) return length * perCharacter;
  return name === 'binary' || name === 'char' ? perCharacter : Number.POSITIVE_INFINITY;
}

/**
 * MySQL/MariaDB conversions the general rules below do not see, each as MariaDB 10.11 does them in strict
 * mode (tried on the server): refused half way (which, with no rollback of DDL, leaves the script half
 * applied) or, worse, done with a changed value. Undefined when the general rules decide.
 */
function mysqlLoss(
  before: Column,
  after: Column,
  from: string | undefined,
  to: string | undefined,
): Loss | null | undefined {
  const a = before.driver_data_type_params ?? {};
  const b = after.driver_data_type_params ?? {};
  const source = before.driver_data_type_name;
  const target = after.driver_data_type_name;
  // A number made an ENUM is read as a member's position (2 becomes the second member; made a number
  // again, it is 2 again): 0, fractions and positions past the last member are refused.
  if (target === 'enum' && (from === 'integer' || from === 'decimal' || from === 'float')) {
    const count = (b.values ?? []).length;
    return {
      what: `values are read as member positions (1 becomes ${b.values?.[0] ?? 'the first'}); values outside 1 … ${count}${
        from === 'integer' ? '' : ' or with fractions'
      } would not fit`,
      check: { kind: 'range', min: '1', max: String(count), fractions: from !== 'integer' },
    };
  }
  // TIMESTAMP holds 1970-01-01 00:00:01 … 2038-01-19 03:14:07 UTC; a DATETIME or DATE is read in the
  // session's time zone, and one outside that range (or in a daylight-saving gap) is refused.
  if (target === 'timestamp' && (source === 'datetime' || from === 'date') && source !== 'year') {
    const kept = (params: typeof a) => (typeof params.precision === 'number' ? params.precision : 0);
    const rounds = from === 'datetime' && kept(b) < kept(a);
    return {
      what: `values outside TIMESTAMP's range (1970-01-01 00:00:01 … 2038-01-19 03:14:07 UTC, read in the session's time zone) or in a daylight-saving gap would not fit${
        rounds ? `, and fractional seconds beyond ${kept(b)} digits would be rounded` : ''
      }`,
      check: { kind: 'timestamp', precision: rounds ? kept(b) : null },
    };
  }
  if (target === 'year' && source !== 'year') {
    if (from === 'integer' || from === 'decimal' || from === 'float' || from === 'boolean') {
      const fractions = from === 'decimal' || from === 'float';
      return {
        what: `values outside 1901 … 2155 (other than 0) would not fit, 1 … 99 would become the years 1970 … 2069${
          fractions ? ', and fractions would be rounded' : ''
        }`,
        check: { kind: 'year', source: 'number', fractions },
      };
    }
    if (from === 'string')
      return {
        what: "values other than a four-digit year 1901 … 2155 (or 0000) would not fit or change ('24' becomes 2024)",
        check: { kind: 'year', source: 'string', fractions: false },
      };
    if (from === 'date' || from === 'datetime')
      return {
        what: 'MariaDB converts no date to YEAR: every value would be refused',
        check: { kind: 'present' },
      };
    return undefined;
  }
  if (to === 'string' && typeof b.length !== 'number' && target in LOB_BYTES) {
    const capacity = byteCapacity(after, to);
    if (byteCapacity(before, from) <= capacity) return null;
    return {
      what: `values longer than ${capacity} bytes would not fit`,
      check: { kind: 'bytes', length: capacity, exact: false },
    };
  }
  if (to === 'binary' && (from === 'binary' || from === 'string')) {
    const capacity = byteCapacity(after, to);
    if (target === 'binary') {
      if (source === 'binary' && capacity === byteCapacity(before, from)) return null;
      return {
        what: `values shorter than ${capacity} bytes would be padded with zero bytes, longer ones would not fit`,
        check: { kind: 'bytes', length: capacity, exact: true },
      };
    }
    if (byteCapacity(before, from) <= capacity) return null;
    return {
      what: `values longer than ${capacity} bytes would not fit`,
      check: { kind: 'bytes', length: capacity, exact: false },
    };
  }
  if (to === 'bit' && from === 'bit') {
    const width = (params: typeof a) => (typeof params.length === 'number' ? params.length : 1);
    if (width(b) >= width(a)) return null;
    return {
      what: `values wider than ${width(b)} bits would not fit`,
      check: { kind: 'bits', length: width(b) },
    };
  }
  if (to === 'enum' && from === 'enum' && source === 'set' && target === 'set') {
    const lost = (a.values ?? []).filter((value) => !(b.values ?? []).includes(value));
    if (lost.length === 0) return null;
    return {
      what: `rows holding ${lost.join(', ')} would not fit`,
      check: { kind: 'members', lost },
    };
  }
  if (to === 'enum' && target === 'enum' && (from === 'string' || source === 'set'))
    return {
      what: `values other than ${(b.values ?? []).join(', ')} would not fit`,
      check: { kind: 'not_in', values: b.values ?? [] },
    };
  if (to === 'decimal' && from === 'string' && typeof b.precision === 'number') {
    const scale = b.scale ?? 0;
    return {
      what: `values that are no number would not fit, values of ${b.precision - scale + 1} or more integer digits would not fit, values with more than ${scale} decimal places would be rounded`,
      check: { kind: 'number_text', precision: b.precision, scale },
    };
  }
  if (to === 'float' && typeof b.precision === 'number' && typeof b.scale === 'number') {
    if (from === 'float' && a.precision === b.precision && a.scale === b.scale) return null;
    const whole = b.precision - b.scale;
    const digits: Check = { kind: 'digits', precision: b.precision, scale: b.scale };
    // A single FLOAT(M,D) also keeps only about 6 significant digits of an exact number or a double.
    const single = target === 'float' && (from !== 'float' || source !== 'float');
    const approximate: Check = from === 'float' ? { kind: 'rounds' } : { kind: 'approximate' };
    return {
      what: `values of ${whole + 1} or more integer digits would not fit, values with more than ${b.scale} decimal places would be rounded${
        single ? ', values with more significant digits than float keeps (about 6) would be rounded' : ''
      }`,
      check: single ? { kind: 'any_of', checks: [digits, approximate] } : digits,
    };
  }
  if (target === 'char' && from === 'string' && source !== 'char') {
    const length = lossOf('mysql', before, { ...after, driver_data_type_name: 'varchar' });
    return {
      what: `trailing spaces would be stripped${length === null ? '' : `, ${length.what}`}`,
      check: {
        kind: 'trailing_space',
        length: length?.check?.kind === 'length' ? length.check.length : null,
      },
    };
  }
  return undefined;
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
    case 'bytes':
      return `LENGTH(${c}) ${check.exact ? '<>' : '>'} ${check.length}`;
    case 'timestamp': {
      const seconds = `UNIX_TIMESTAMP(${c})`;
      // The zero date is kept as the zero TIMESTAMP.
      return `(${c} <> 0 AND (${seconds} IS NULL OR ${seconds} <= 0 OR FROM_UNIXTIME(${seconds}) <> ${c}${
        check.precision === null ? '' : ` OR ${c} <> CAST(${c} AS DATETIME(${check.precision}))`
      }))`;
    }
    case 'year':
      return check.source === 'number'
        ? `(${c} <> 0 AND (${c} < 1901 OR ${c} > 2155)${check.fractions ? ` OR ${c} <> ROUND(${c})` : ''})`
        : `NOT (${c} REGEXP '^[0-9]{4}$' AND (${c} = '0000' OR CAST(${c} AS UNSIGNED) BETWEEN 1901 AND 2155))`;
    case 'present':
      return `${c} IS NOT NULL`;
    case 'members':
      return `(${check.lost.map((value) => `FIND_IN_SET(${dialect.string(value)}, ${c}) > 0`).join(' OR ')})`;
    case 'not_in':
      // Compared as bytes: ENUM would take 'Paid' for 'paid', or a value with trailing spaces.
      return `CAST(${c} AS BINARY) NOT IN (${check.values.map((value) => `CAST(${dialect.string(value)} AS BINARY)`).join(', ')})`;
    case 'bits':
      return `${c} + 0 >= ${2n ** BigInt(check.length)}`;
    case 'number_text': {
      const number = `CAST(${c} AS DECIMAL(65,30))`;
      return `(NOT (${c} REGEXP '^ *[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+) *$') OR ABS(${number}) >= 1${'0'.repeat(
        check.precision - check.scale,
      )} OR ${number} <> ROUND(${number}, ${check.scale}))`;
    }
    case 'any_of':
      return `(${check.checks.map((entry) => violation(dialect, table, before, after, entry)).join(' OR ')})`;
    case 'trailing_space':
      return check.length === null
        ? `${c} LIKE '% '`
        : `(${c} LIKE '% ' OR CHAR_LENGTH(${c}) > ${check.length})`;
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
