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

function label(path: string): string {
  return path === '' ? 'the patch' : path;
}

function checkString(node: ContractNode, value: unknown, path: string, problems: ProblemList): boolean {
  if (typeof value !== 'string') {
    problems.add(path, `${label(path)} must be a string, got ${describe(value)}`);
    return false;
  }
  const minLength = node.spec.min_length;
  if (minLength !== undefined && value.trim().length < minLength) {
    problems.add(path, `${label(path)} must not be empty`);
    return false;
  }
  if (node.enumValues !== null && !node.enumValues.has(value)) {
    problems.add(path, `${label(path)} must be one of ${[...node.enumValues].join(', ')}`);
    return false;
  }
  return true;
}

function checkInteger(node: ContractNode, value: unknown, path: string, problems: ProblemList): boolean {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    problems.add(path, `${label(path)} must be an integer, got ${describe(value)}`);
    return false;
  }
  const minimum = node.spec.minimum;
  if (minimum !== undefined && value < minimum) {
    problems.add(path, `${label(path)} must be ${minimum === 0 ? 'non-negative' : `at least ${minimum}`}`);
    return false;
  }
  return true;
}

function checkArray(node: ContractNode, value: unknown, path: string, problems: ProblemList): boolean {
  if (!Array.isArray(value)) {
    problems.add(path, `${label(path)} must be an array, got ${describe(value)}`);
    return false;
  }
  const minItems = node.spec.min_items;
  let valid = true;
  if (minItems !== undefined && value.length < minItems) {
    problems.add(path, `${label(path)} must list at least ${minItems} entr${minItems === 1 ? 'y' : 'ies'}`);
    valid = false;
  }
  const items = node.items;
  if (items === null) return valid;
  for (let index = 0; index < value.length && !problems.isFull; index++)
    valid = checkShape(items, value[index], `${path}[${index}]`, problems) && valid;
  return valid && !problems.isFull;
}

function checkObject(node: ContractNode, value: unknown, path: string, problems: ProblemList): boolean {
  if (!isPlainObject(value)) {
    problems.add(path, `${label(path)} must be an object, got ${describe(value)}`);
    return false;
  }
  let valid = true;
  for (const { key, node: child } of node.propertyList) {
    const field = Object.hasOwn(value, key) ? value[key] : undefined;
    if (field === undefined) {
      if (!child.required) continue;
      problems.add(pathOf(path, key), `${pathOf(path, key)} is required`);
      valid = false;
    } else if (!conformsAtAGlance(child, field))
      valid = checkShape(child, field, pathOf(path, key), problems) && valid;
  }
  return valid;
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
export function checkShape(node: ContractNode, value: unknown, path: string, problems: ProblemList): boolean {
  switch (node.spec.type) {
    case 'string':
      return checkString(node, value, path, problems);
    case 'integer':
      return checkInteger(node, value, path, problems);
    case 'boolean':
      if (typeof value === 'boolean') return true;
      problems.add(path, `${label(path)} must be a boolean (true or false), got ${describe(value)}`);
      return false;
    case 'array':
      return checkArray(node, value, path, problems);
    case 'object':
      return checkObject(node, value, path, problems);
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
