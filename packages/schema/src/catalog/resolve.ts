// Resolves a type as written (in a patch column or a DDL dump) against a driver's catalog: the canonical
// name plus parameters checked against the manual's bounds. Failures say why, so a patch author (or the DDL
// importer) can be told what to change.
import type { DataTypeParams, Driver } from '../model';
import type { ResolvedDataType } from '../patch-types';
import { dataTypeKey, lookupDataType } from './catalog';
import { readWrittenType, type TypeArgument, type TypeWord, type WrittenType } from './type-syntax';
import type { DataTypeEntry, DataTypeParam } from './types';

/** Values given beside the written type, as a patch column does with `length` and `enum_values`. */
export interface DataTypeExtras {
  length?: number;
  enum_values?: string[];
}

/** MySQL column attributes written after the type (`bigint(20) unsigned zerofill`). */
export interface DataTypeModifiers {
  /** true for `unsigned`, false for `signed`, absent when neither was written. */
  unsigned?: boolean;
  zerofill?: boolean;
  charset?: string;
  collation?: string;
}

export type DataTypeFailureReason =
  | 'empty'
  | 'malformed'
  | 'unknown_type'
  | 'unexpected_param'
  | 'missing_param'
  | 'too_many_params'
  | 'param_out_of_range'
  | 'invalid_param'
  | 'conflicting_param'
  | 'array_not_supported'
  | 'unexpected_modifier';

export type DataTypeResolution =
  | { ok: true; type: ResolvedDataType; entry: DataTypeEntry; modifiers: DataTypeModifiers }
  | {
      ok: false;
      reason: DataTypeFailureReason;
      message: string;
      /** What the failure is about: the written type, or one of the extras. */
      source: 'type' | 'length' | 'enum_values';
    };

type Failure = Extract<DataTypeResolution, { ok: false }>;

function failure(
  reason: DataTypeFailureReason,
  message: string,
  source: Failure['source'] = 'type',
): Failure {
  return { ok: false, reason, message, source };
}

const QUOTE_LIMIT = 60;
function quote(text: string): string {
  return `"${text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text}"`;
}

function wordsText(words: readonly TypeWord[]): string {
  return words.map((word) => word.value).join(' ');
}

interface NameMatch {
  entry: DataTypeEntry;
  fields?: string;
}

/** The entry the name words stand for; a trailing interval field list (`day to second`) is a parameter. */
function matchName(driver: Driver, words: readonly TypeWord[]): NameMatch | null {
  const [first] = words;
  if (words.length === 1 && first?.quoted) {
    const exact = lookupDataType(driver, `"${first.value}"`);
    if (exact !== null) return { entry: exact };
  }
  const whole = lookupDataType(driver, wordsText(words));
  if (whole !== null) return { entry: whole };
  for (let split = words.length - 1; split >= 1; split--) {
    const entry = lookupDataType(driver, wordsText(words.slice(0, split)));
    if (entry === null) continue;
    const fields = dataTypeKey(wordsText(words.slice(split)));
    const accepts = entry.param_values.some((pv) => pv.param === 'fields' && pv.value === fields);
    return accepts ? { entry, fields } : null;
  }
  return null;
}

const MODIFIER_STARTS = new Set(['unsigned', 'signed', 'zerofill', 'charset', 'collate']);

function isModifierStart(words: readonly TypeWord[], index: number): boolean {
  const word = words[index]!;
  if (word.quoted) return false;
  return MODIFIER_STARTS.has(word.value) || (word.value === 'character' && words[index + 1]?.value === 'set');
}

/** Splits MySQL attributes off the end of the words. Null when something there is not an attribute. */
function readModifiers(words: readonly TypeWord[], from: number): DataTypeModifiers | string {
  const modifiers: DataTypeModifiers = {};
  for (let index = from; index < words.length; index++) {
    const word = words[index]!.value;
    if (word === 'unsigned' || word === 'signed') modifiers.unsigned = word === 'unsigned';
    else if (word === 'zerofill') modifiers.zerofill = true;
    else if (word === 'charset' || word === 'collate' || word === 'character') {
      if (word === 'character') index++;
      const value = words[index + 1];
      if (value === undefined) return `"${word}" needs a name after it`;
      index++;
      if (word === 'collate') modifiers.collation = value.value;
      else modifiers.charset = value.value;
    } else return `unexpected "${word}"`;
  }
  return modifiers;
}

function modifierProblem(entry: DataTypeEntry, modifiers: DataTypeModifiers): string | null {
  if (modifiers.unsigned !== undefined && !entry.options.includes('unsigned'))
    return `${entry.name} cannot be ${modifiers.unsigned ? 'unsigned' : 'signed'}`;
  if (modifiers.zerofill && !entry.options.includes('zerofill')) return `${entry.name} cannot be zerofill`;
  if ((modifiers.charset !== undefined || modifiers.collation !== undefined) && entry.family !== 'string')
    return `${entry.name} takes no character set or collation`;
  return null;
}

/** FLOAT(p) picks single or double precision from p in all three drivers; p itself is not kept. */
const FLOAT_BY_PRECISION: { [driver in Driver]: { min: number; single: string; double: string } } = {
  mysql: { min: 0, single: 'float', double: 'double' },
  pgsql: { min: 1, single: 'real', double: 'double precision' },
  sqlsrv: { min: 1, single: 'real', double: 'float' },
};

function floatByPrecision(driver: Driver, precision: number): DataTypeEntry | string {
  const rule = FLOAT_BY_PRECISION[driver];
  if (precision < rule.min || precision > 53)
    return `float precision must be between ${rule.min} and 53, got ${precision}`;
  return lookupDataType(driver, precision <= 24 ? rule.single : rule.double)!;
}

function checkBounds(param: DataTypeParam, value: number, typeName: string): string | null {
  if ((param.min !== null && value < param.min) || (param.max !== null && value > param.max))
    return `${param.name} of ${typeName} must be between ${param.min ?? '-∞'} and ${param.max ?? '∞'}, got ${value}`;
  return null;
}

function checkValues(values: readonly string[], param: DataTypeParam, typeName: string): string | null {
  if (param.min !== null && values.length < param.min) return `${typeName} needs at least ${param.min} value`;
  if (param.max !== null && values.length > param.max)
    return `${typeName} takes at most ${param.max} values, got ${values.length}`;
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) return `${typeName} lists the value ${quote(value)} twice`;
    seen.add(value);
  }
  return null;
}

function acceptsMax(entry: DataTypeEntry): boolean {
  return entry.param_values.some((pv) => pv.param === 'length' && pv.value === 'max');
}

/** Fills params from the parenthesised arguments, in catalog order. */
function readArgumentParams(
  entry: DataTypeEntry,
  args: readonly TypeArgument[],
  params: DataTypeParams,
): Failure | null {
  const valuesParam = entry.params.find((param) => param.name === 'values');
  if (valuesParam !== undefined) {
    if (args.some((arg) => arg.kind !== 'string'))
      return failure('invalid_param', `the values of ${entry.name} must be quoted strings`);
    params.values = args.map((arg) => arg.value as string);
    return null;
  }
  const positional = entry.params.filter((param) => param.type === 'integer');
  if (positional.length === 0) return failure('unexpected_param', `${entry.name} takes no parameters`);
  if (args.length > positional.length)
    return failure(
      'too_many_params',
      `${entry.name} takes at most ${positional.length} parameter(s), got ${args.length}`,
    );
  for (const [index, arg] of args.entries()) {
    const param = positional[index]!;
    if (arg.kind === 'word' && arg.value === 'max' && param.name === 'length' && acceptsMax(entry)) {
      params.length = 'max';
      continue;
    }
    if (arg.kind !== 'integer')
      return failure('invalid_param', `${param.name} of ${entry.name} must be an integer`);
    const outOfRange = checkBounds(param, arg.value, entry.name);
    if (outOfRange !== null) return failure('param_out_of_range', outOfRange);
    params[param.name as 'length' | 'precision' | 'scale'] = arg.value;
  }
  return null;
}

function foldExtras(entry: DataTypeEntry, extras: DataTypeExtras, params: DataTypeParams): Failure | null {
  if (extras.length !== undefined) {
    const param = entry.params.find((candidate) => candidate.name === 'length');
    if (param === undefined) return failure('unexpected_param', `${entry.name} takes no length`, 'length');
    if (params.length !== undefined && params.length !== extras.length)
      return failure(
        'conflicting_param',
        `length ${extras.length} differs from the type's (${params.length})`,
        'length',
      );
    const outOfRange = checkBounds(param, extras.length, entry.name);
    if (outOfRange !== null) return failure('param_out_of_range', outOfRange, 'length');
    params.length = extras.length;
  }
  if (extras.enum_values !== undefined) {
    if (!entry.params.some((param) => param.name === 'values'))
      return failure(
        'unexpected_param',
        `enum_values apply only to enum and set types, not ${entry.name}`,
        'enum_values',
      );
    const written = params.values;
    if (written !== undefined && written.join('\u0000') !== extras.enum_values.join('\u0000'))
      return failure(
        'conflicting_param',
        `enum_values differ from the values written in the type`,
        'enum_values',
      );
    params.values = [...extras.enum_values];
  }
  return null;
}

function missingParamMessage(entry: DataTypeEntry, param: DataTypeParam): string {
  if (param.name === 'values') return `${entry.name} needs its list of values (write enum_values)`;
  return `${entry.name} needs a ${param.name} (write ${entry.name}(n)${param.name === 'length' ? ' or set length' : ''})`;
}

function checkParams(
  entry: DataTypeEntry,
  params: DataTypeParams,
  driver: Driver,
  extras: DataTypeExtras,
): Failure | null {
  for (const param of entry.params) {
    if (param.name === 'values' && params.values !== undefined) {
      const problem = checkValues(params.values, param, entry.name);
      const source = extras.enum_values === undefined ? 'type' : 'enum_values';
      if (problem !== null) return failure('invalid_param', problem, source);
    }
    if (param.required && params[param.name] === undefined)
      return failure('missing_param', missingParamMessage(entry, param));
  }
  const { precision, scale } = params;
  // PostgreSQL 15+ allows a scale outside 0..precision; MySQL and SQL Server do not.
  if (driver !== 'pgsql' && precision !== undefined && scale !== undefined && scale > precision)
    return failure(
      'param_out_of_range',
      `scale ${scale} of ${entry.name} exceeds its precision ${precision}`,
    );
  return null;
}

function resolveWritten(driver: Driver, written: WrittenType, extras: DataTypeExtras): DataTypeResolution {
  let nameWords = written.words;
  let modifiers: DataTypeModifiers = {};
  if (driver === 'mysql') {
    const start = nameWords.findIndex((_, index) => index > 0 && isModifierStart(nameWords, index));
    if (start > 0) {
      const read = readModifiers(nameWords, start);
      if (typeof read === 'string') return failure('unexpected_modifier', read);
      if (written.args !== null && written.argsPosition > start)
        return failure('malformed', 'parameters must come before the column attributes');
      modifiers = read;
      nameWords = nameWords.slice(0, start);
    }
  }
  if (nameWords.length === 0) return failure('malformed', 'no type name');
  const match = matchName(driver, nameWords);
  if (match === null)
    return failure('unknown_type', `${quote(wordsText(nameWords))} is not a ${driver} data type`);
  let entry = match.entry;
  const params: DataTypeParams = {};
  let args = written.args;
  if (dataTypeKey(wordsText(nameWords)) === 'float' && args?.length === 1 && args[0]!.kind === 'integer') {
    const byPrecision = floatByPrecision(driver, args[0]!.value);
    if (typeof byPrecision === 'string') return failure('param_out_of_range', byPrecision);
    entry = byPrecision;
    args = null;
  }
  if (match.fields !== undefined) params.fields = match.fields;
  if (args !== null) {
    const problem = readArgumentParams(entry, args, params);
    if (problem !== null) return problem;
  }
  const extrasProblem = foldExtras(entry, extras, params);
  if (extrasProblem !== null) return extrasProblem;
  const paramsProblem = checkParams(entry, params, driver, extras);
  if (paramsProblem !== null) return paramsProblem;
  if (written.array) {
    if (!entry.options.includes('array'))
      return failure('array_not_supported', `${entry.name} cannot be an array on ${driver}`);
    params.array = true;
  }
  const modifierIssue = modifierProblem(entry, modifiers);
  if (modifierIssue !== null) return failure('unexpected_modifier', modifierIssue);
  const hasParams = Object.keys(params).length > 0;
  return { ok: true, type: { name: entry.name, params: hasParams ? params : null }, entry, modifiers };
}

function resolveUncached(driver: Driver, written: string, extras: DataTypeExtras): DataTypeResolution {
  if (typeof written !== 'string' || written.trim() === '') return failure('empty', 'the type is empty');
  const syntax = readWrittenType(written, { backslashEscapes: driver === 'mysql' });
  if (!syntax.ok) return failure('malformed', `cannot read type ${quote(written.trim())}: ${syntax.message}`);
  return resolveWritten(driver, syntax.type, extras);
}

// A patch repeats a handful of types thousands of times; resolving each distinct one once keeps
// validation of large patches fast. Keyed by driver, then `length`, then the `enum_values` (as JSON text;
// '' for none, which no JSON array text is), then the written text (nested Maps, so no key string is
// built per lookup of a plain type); bounded by clearing when full.
const CACHE_LIMIT = 4096;
/** Longer lists of enum values are resolved every time rather than kept under a long key. */
const ENUM_KEY_LIMIT = 1000;
const NO_ENUM_VALUES = '';
const cache = new Map<Driver, Map<number | undefined, Map<string, Map<string, DataTypeResolution>>>>();
let cachedCount = 0;

/** The cache key of `enum_values`, or null when they are not a short list of strings. */
function enumValuesKey(values: DataTypeExtras['enum_values']): string | null {
  if (values === undefined) return NO_ENUM_VALUES;
  if (!Array.isArray(values)) return null;
  for (const value of values) if (typeof value !== 'string') return null;
  const key = JSON.stringify(values);
  return key.length > ENUM_KEY_LIMIT ? null : key;
}

function cachedResolution(
  driver: Driver,
  written: string,
  extras: DataTypeExtras,
  enumKey: string,
): DataTypeResolution {
  // Spelled out rather than through a helper taking a factory: no closure per lookup.
  let byLength = cache.get(driver);
  if (byLength === undefined) {
    byLength = new Map();
    cache.set(driver, byLength);
  }
  let byEnum = byLength.get(extras.length);
  if (byEnum === undefined) {
    byEnum = new Map();
    byLength.set(extras.length, byEnum);
  }
  let byText = byEnum.get(enumKey);
  if (byText === undefined) {
    byText = new Map();
    byEnum.set(enumKey, byText);
  }
  let resolution = byText.get(written);
  if (resolution === undefined) {
    resolution = resolveUncached(driver, written, extras);
    if (cachedCount >= CACHE_LIMIT) {
      // Every level goes, so keys of lengths and enum lists seen once do not pile up either.
      cache.clear();
      cachedCount = 0;
      return resolution;
    }
    byText.set(written, resolution);
    cachedCount++;
  }
  return resolution;
}

/** The memoised resolution, or null when this one is not memoised (long or odd input). */
function memoised(driver: Driver, written: string, extras: DataTypeExtras): DataTypeResolution | null {
  if (typeof written !== 'string' || written.length > 200) return null;
  const enumKey = enumValuesKey(extras.enum_values);
  return enumKey === null ? null : cachedResolution(driver, written, extras, enumKey);
}

function copyResolution(resolution: DataTypeResolution): DataTypeResolution {
  if (!resolution.ok) return { ...resolution };
  const params = resolution.type.params;
  const copiedParams =
    params === null ? null : { ...params, ...(params.values && { values: [...params.values] }) };
  return {
    ...resolution,
    type: { name: resolution.type.name, params: copiedParams },
    modifiers: { ...resolution.modifiers },
  };
}

/**
 * `parseDataType` for callers that only read the result: it may be the memoised object itself, shared with
 * every other caller, so it must not be mutated (validation copies the type into the Patch it builds).
 */
export function parseDataTypeShared(
  driver: Driver,
  written: string,
  extras: DataTypeExtras = {},
): DataTypeResolution {
  return memoised(driver, written, extras) ?? resolveUncached(driver, written, extras);
}

/**
 * Resolves a written type with a reason on failure. Accepts what real dumps write: display widths
 * (`int(11)`), MySQL attributes (`bigint(20) unsigned`, reported in `modifiers`), multi-word names
 * (`double precision`, `timestamp(3) with time zone`), quoted names (`"int"`, `[nvarchar](50)`),
 * schema-qualified built-ins (`pg_catalog.int4`), PostgreSQL arrays (`text[]`, `integer array`).
 * `extras.length` and `extras.enum_values` are folded into the parameters. Never throws. The result is
 * the caller's own: it may be mutated.
 */
export function parseDataType(
  driver: Driver,
  written: string,
  extras: DataTypeExtras = {},
): DataTypeResolution {
  const shared = memoised(driver, written, extras);
  return shared === null ? resolveUncached(driver, written, extras) : copyResolution(shared);
}

/** The canonical name and parameters of a written type, or null when the driver has no such type. */
export function resolveDataType(
  driver: Driver,
  written: string,
  extras?: DataTypeExtras,
): ResolvedDataType | null {
  const resolution = parseDataType(driver, written, extras);
  return resolution.ok ? resolution.type : null;
}
