// Checks a normalised value against the compiled contract: types, enums, minimums, required fields.
// Returns whether the value conforms, so later checks only read entries whose types are known.
import type { ContractNode } from '../contract/contract';
import { isPlainObject } from '../normalize';
import { pathOf, type ProblemList } from './problem-list';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value === 'number' && !Number.isInteger(value) ? 'a fractional number' : `a ${typeof value}`;
}

/**
 * Where a value sits: its path as text, or a step below a parent, rendered only when a problem is
 * reported. Most values of a large patch have no problem, and building every path cost more than checking.
 */
type Where = string | { readonly parent: Where; readonly key: string | number };

function render(where: Where): string {
  if (typeof where === 'string') return where;
  const parent = render(where.parent);
  return typeof where.key === 'number' ? `${parent}[${where.key}]` : pathOf(parent, where.key);
}

function label(path: string): string {
  return path === '' ? 'the patch' : path;
}

/** Reports that the value at `where` `must …`; returns false, the verdict on the value. */
function report(problems: ProblemList, where: Where, must: string): false {
  const path = render(where);
  problems.add(path, `${label(path)} ${must}`);
  return false;
}

function checkString(node: ContractNode, value: unknown, where: Where, problems: ProblemList): boolean {
  if (typeof value !== 'string') return report(problems, where, `must be a string, got ${describe(value)}`);
  const minLength = node.spec.min_length;
  if (minLength !== undefined && value.trim().length < minLength)
    return report(problems, where, 'must not be empty');
  if (node.enumValues !== null && !node.enumValues.has(value))
    return report(problems, where, `must be one of ${[...node.enumValues].join(', ')}`);
  return true;
}

function checkInteger(node: ContractNode, value: unknown, where: Where, problems: ProblemList): boolean {
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    return report(problems, where, `must be an integer, got ${describe(value)}`);
  const minimum = node.spec.minimum;
  if (minimum !== undefined && value < minimum)
    return report(problems, where, `must be ${minimum === 0 ? 'non-negative' : `at least ${minimum}`}`);
  return true;
}

function checkArray(node: ContractNode, value: unknown, where: Where, problems: ProblemList): boolean {
  if (!Array.isArray(value)) return report(problems, where, `must be an array, got ${describe(value)}`);
  const minItems = node.spec.min_items;
  let valid = true;
  if (minItems !== undefined && value.length < minItems)
    valid = report(problems, where, `must list at least ${minItems} entr${minItems === 1 ? 'y' : 'ies'}`);
  const items = node.items;
  if (items === null) return valid;
  for (let index = 0; index < value.length && !problems.isFull; index++) {
    const item = value[index];
    if (conformsAtAGlance(items, item)) continue;
    valid =
      (items.spec.type === 'object'
        ? checkObject(items, item, where, index, problems)
        : checkShape(items, item, { parent: where, key: index }, problems)) && valid;
  }
  return valid && !problems.isFull;
}

/** The Where of the value at `key` of `parent`, or `parent` itself when `key` is null. */
function whereOf(parent: Where, key: string | number | null): Where {
  return key === null ? parent : { parent, key };
}

/**
 * Checks the object at `key` of `parent` (or at `parent` itself when `key` is null). Its own Where is made
 * only when a problem is reported in it or one of its fields is an array or object to walk: thousands of
 * column entries need none.
 */
function checkObject(
  node: ContractNode,
  value: unknown,
  parent: Where,
  key: string | number | null,
  problems: ProblemList,
): boolean {
  if (!isPlainObject(value))
    return report(problems, whereOf(parent, key), `must be an object, got ${describe(value)}`);
  if (conformsFieldByField(node, value)) return true;
  let valid = true;
  for (const { key: fieldKey, node: child } of node.propertyList) {
    const field = Object.hasOwn(value, fieldKey) ? value[fieldKey] : undefined;
    if (field === undefined) {
      if (!child.required) continue;
      const fieldPath = pathOf(render(whereOf(parent, key)), fieldKey);
      problems.add(fieldPath, `${fieldPath} is required`);
      valid = false;
    } else if (!conformsAtAGlance(child, field)) {
      const fieldWhere = { parent: whereOf(parent, key), key: fieldKey };
      valid = checkShape(child, field, fieldWhere, problems) && valid;
    }
  }
  return valid;
}

/**
 * The common case of an object whose fields are all scalars that conform at a glance, with every required
 * field present, decided from its own few keys rather than every property of the contract (a column entry
 * sends 3 to 6 of 15). False means "look closer", never "invalid": `checkObject` then walks the contract's
 * properties in order, as it always does when it reports.
 */
function conformsFieldByField(node: ContractNode, value: { [key: string]: unknown }): boolean {
  let required = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = value[key];
    if (field === undefined) continue;
    const child = node.properties.get(key);
    if (child === undefined) continue;
    if (!conformsAtAGlance(child, field)) return false;
    if (child.required) required++;
  }
  return required === node.requiredCount;
}

/** The common case of a valid scalar, decided without building its path. */
function conformsAtAGlance(node: ContractNode, value: unknown): boolean {
  switch (node.spec.type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return (
        Number.isSafeInteger(value) &&
        (node.spec.minimum === undefined || (value as number) >= node.spec.minimum)
      );
    case 'string':
      return (
        typeof value === 'string' &&
        (node.spec.min_length === undefined || value.trim().length >= node.spec.min_length) &&
        (node.enumValues === null || node.enumValues.has(value))
      );
    default:
      return false;
  }
}

/** Reports every way `value` departs from `node`; true when it conforms. */
export function checkShape(node: ContractNode, value: unknown, where: Where, problems: ProblemList): boolean {
  switch (node.spec.type) {
    case 'string':
      return checkString(node, value, where, problems);
    case 'integer':
      return checkInteger(node, value, where, problems);
    case 'boolean':
      return (
        typeof value === 'boolean' ||
        report(problems, where, `must be a boolean (true or false), got ${describe(value)}`)
      );
    case 'array':
      return checkArray(node, value, where, problems);
    case 'object':
      return checkObject(node, value, where, null, problems);
  }
}

/**
 * The entries of an array section that conform to `items`, with their paths. Problems are reported for
 * the rest, which are collected in `rejected`; an absent section yields no entries.
 */
export function conformingEntries<T>(
  node: ContractNode,
  value: unknown,
  path: string,
  problems: ProblemList,
  rejected: unknown[] = [],
): { entry: T; path: string }[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.add(path, `${path} must be an array, got ${describe(value)}`);
    return [];
  }
  const entries: { entry: T; path: string }[] = [];
  for (let index = 0; index < value.length; index++) {
    const entryPath = `${path}[${index}]`;
    if (!problems.isFull && checkShape(node.items!, value[index], entryPath, problems))
      entries.push({ entry: value[index] as T, path: entryPath });
    else rejected.push(value[index]);
  }
  const minItems = node.spec.min_items;
  if (minItems !== undefined && value.length < minItems) problems.add(path, `${path} must not be empty`);
  return entries;
}
