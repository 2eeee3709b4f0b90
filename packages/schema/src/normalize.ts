// Applies the contract's tolerance rules to a patch as received: unknown keys stripped with a warning,
// aliases rewritten, string booleans and numbers coerced, names trimmed, duplicate entries merged, the
// deletions shorthand expanded. Everything is driven by the compiled contract, and values of the wrong
// type are kept as they are for `validate` to report. Output objects carry only contract keys, so no
// user key (`__proto__`, `constructor`) is ever assigned and nothing can reach a prototype.
import { type ContractNode, patchContract } from './contract/contract';
import type { PatchWarning } from './patch-types';

type Fields = { [key: string]: unknown };

/**
 * A patch after normalisation and before validation. Only contract keys are present; every value is
 * `unknown` because it may still have the wrong type.
 */
export interface NormalizedPatchObject {
  strategy?: unknown;
  tables?: unknown;
  groups?: unknown;
  relationships?: unknown;
  sticky_notes?: unknown;
  deletions?: unknown;
}

/** An input that is not a JSON object (nor a string holding one); `validate` reports `reason`. */
export class RejectedPatchInput {
  constructor(readonly reason: string) {}
}

export type NormalizedPatch = NormalizedPatchObject | RejectedPatchInput;

export interface NormalizeResult {
  patch: NormalizedPatch;
  warnings: PatchWarning[];
}

const KEY_QUOTE_LIMIT = 80;

export function isPlainObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Where the value being normalised sits in the patch: the keys and indexes from the root, pushed on the way
 * down and popped on the way back, and rendered (`tables[0].columns[2]`) only when a warning needs it.
 * One array for the whole walk: building a path, or even a step object, for every value of a large patch
 * cost more than normalising it.
 */
type Path = (string | number)[];

function renderPath(path: Path): string {
  let text = '';
  for (const key of path)
    text = typeof key === 'number' ? `${text}[${key}]` : text === '' ? key : `${text}.${key}`;
  return text;
}

function quoteKey(key: string): string {
  return JSON.stringify(key.length > KEY_QUOTE_LIMIT ? `${key.slice(0, KEY_QUOTE_LIMIT)}…` : key);
}

function where(path: string): string {
  return path === '' ? 'at the top level' : `at ${path}`;
}

function warn(warnings: PatchWarning[], path: string, key: string, message: string): void {
  warnings.push({ code: 'unknown_key', path, key, message });
}

function coerceBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return word === 'true' ? true : word === 'false' ? false : value;
}

const NUMBER_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function coerceNumber(value: unknown): unknown {
  return typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : value;
}

/** `path` locates the value's parent and `key` the value in it; arrays and objects are walked below it. */
function normalizeValue(
  node: ContractNode,
  value: unknown,
  path: Path,
  key: string | number,
  warnings: PatchWarning[],
): unknown {
  switch (node.spec.type) {
    case 'boolean':
      return coerceBoolean(value);
    case 'integer':
      return coerceNumber(value);
    case 'string':
      return node.spec.trim && typeof value === 'string' ? value.trim() : value;
    case 'array':
    case 'object': {
      path.push(key);
      const normalized =
        node.spec.type === 'array'
          ? normalizeArray(node, value, path, warnings)
          : normalizeObject(node, value, path, warnings);
      path.pop();
      return normalized;
    }
  }
}

function normalizeObject(node: ContractNode, value: unknown, path: Path, warnings: PatchWarning[]): unknown {
  if (!isPlainObject(value)) return value;
  // Only contract keys are ever written to `out` (never a key the user sent), so a plain object is safe
  // and keeps V8's fast property access. Keys are read in the order they were sent (`for…in` visits own
  // keys in the order `Object.keys` lists them, without allocating that array), so warnings follow the
  // input; inherited keys are skipped.
  const out: Fields = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const raw = value[key];
    if (raw === undefined) continue;
    const field = node.properties.get(key);
    if (field !== undefined) {
      out[key] = normalizeValue(field, raw, path, key, warnings);
      continue;
    }
    const alias = node.aliases.get(key);
    if (alias === undefined) {
      const at = renderPath(path);
      warn(warnings, at, key, `Unknown key ${quoteKey(key)} ${where(at)} was ignored`);
    } else if (Object.hasOwn(value, alias.becomes) && value[alias.becomes] !== undefined) {
      const at = renderPath(path);
      const message = `${quoteKey(key)} ${where(at)} was ignored: ${quoteKey(alias.becomes)} is also given and wins`;
      warn(warnings, at, key, message);
    } else if (!Object.hasOwn(out, alias.becomes)) {
      const target = node.properties.get(alias.becomes)!;
      const coerced = normalizeValue(target, raw, path, alias.becomes, warnings);
      out[alias.becomes] = alias.inverted && typeof coerced === 'boolean' ? !coerced : coerced;
    }
  }
  return out;
}

function expandShorthand(node: ContractNode, value: Fields): Fields[] {
  const { key, values } = node.spec.object_shorthand!;
  return Object.keys(value).map((name) => {
    const entry: Fields = {};
    entry[key] = name;
    entry[values] = value[name];
    return entry;
  });
}

function normalizeArray(node: ContractNode, value: unknown, path: Path, warnings: PatchWarning[]): unknown {
  const entries = node.spec.object_shorthand && isPlainObject(value) ? expandShorthand(node, value) : value;
  if (!Array.isArray(entries) || node.items === null) return entries;
  const items = node.items;
  const normalized = entries.map((entry, index) => normalizeValue(items, entry, path, index, warnings));
  const mergeBy = node.spec.merge_entries_by;
  return mergeBy === undefined ? normalized : mergeEntries(items, normalized, mergeBy);
}

/** Entries renaming from different old names are two renames, not one entry: they stay apart. */
function canMerge(earlier: Fields, later: Fields): boolean {
  return (
    earlier.old_name === undefined || later.old_name === undefined || earlier.old_name === later.old_name
  );
}

/** Up to this many entries, an earlier entry with the same key is found by scanning: no Map per array. */
const SCAN_LIMIT = 32;

function mergeEntries(items: ContractNode, entries: unknown[], mergeBy: string): unknown[] {
  const merged: unknown[] = [];
  const positionByKey = entries.length > SCAN_LIMIT ? new Map<string, number>() : null;
  for (const entry of entries) {
    const key = isPlainObject(entry) ? entry[mergeBy] : undefined;
    const position =
      typeof key !== 'string'
        ? undefined
        : positionByKey === null
          ? lastPositionOf(merged, mergeBy, key)
          : positionByKey.get(key);
    const earlier = position === undefined ? undefined : merged[position];
    if (isPlainObject(entry) && isPlainObject(earlier) && canMerge(earlier, entry)) {
      merged[position!] = mergeObjects(items, earlier, entry);
      continue;
    }
    if (typeof key === 'string') positionByKey?.set(key, merged.length);
    merged.push(entry);
  }
  return merged;
}

/** The last entry of `merged` whose `mergeBy` is `key` (what the Map of larger arrays holds). */
function lastPositionOf(merged: readonly unknown[], mergeBy: string, key: string): number | undefined {
  for (let position = merged.length - 1; position >= 0; position--) {
    const entry = merged[position];
    if (isPlainObject(entry) && entry[mergeBy] === key) return position;
  }
  return undefined;
}

function mergeObjects(node: ContractNode, earlier: Fields, later: Fields): Fields {
  const out: Fields = {};
  for (const { key, node: child } of node.propertyList) {
    const before = earlier[key];
    const after = later[key];
    const mergeBy = child.spec.merge_entries_by;
    if (mergeBy !== undefined && child.items !== null && Array.isArray(before) && Array.isArray(after))
      out[key] = mergeEntries(child.items, [...before, ...after], mergeBy);
    else if (after !== undefined) out[key] = after;
    else if (before !== undefined) out[key] = before;
  }
  return out;
}

function describeNonObject(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return new RejectedPatchInput(`the patch is a string that is not valid JSON${detail.slice(0, 200)}`);
  }
}

/**
 * Normalises a patch sent as an object or as a JSON string. Never throws: input that is not an object
 * comes back as a `RejectedPatchInput` for `validate` to report. Normalising twice equals normalising once.
 */
export function normalize(input: unknown): NormalizeResult {
  if (input instanceof RejectedPatchInput) return { patch: input, warnings: [] };
  const parsed = typeof input === 'string' ? parseText(input) : input;
  if (parsed instanceof RejectedPatchInput) return { patch: parsed, warnings: [] };
  if (!isPlainObject(parsed)) {
    const what =
      typeof input === 'string' ? `a string holding ${describeNonObject(parsed)}` : describeNonObject(parsed);
    return { patch: new RejectedPatchInput(`the patch is ${what}, not a JSON object`), warnings: [] };
  }
  const warnings: PatchWarning[] = [];
  const patch = normalizeObject(patchContract, parsed, [], warnings) as NormalizedPatchObject;
  return { patch, warnings };
}
