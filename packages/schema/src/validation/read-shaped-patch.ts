// Splits a normalised patch into its sections, keeping only entries that conform to the contract (the
// rest are reported). Later checks work on these typed entries and never meet a value of the wrong type.
import { contractNodeAt, patchContract } from '../contract/contract';
import type { NormalizedPatchObject } from '../normalize';
import { isPlainObject } from '../normalize';
import type { Strategy } from '../patch-types';
import type { ProblemList } from './problem-list';
import { checkShape, conformingEntries } from './shape';
import type { ShapedPatch } from './shaped-types';

function readStrategy(value: unknown, problems: ProblemList): Strategy | null {
  if (value === undefined) {
    problems.add('strategy', 'strategy is required: merge or additive');
    return null;
  }
  return checkShape(patchContract.properties.get('strategy')!, value, 'strategy', problems)
    ? (value as Strategy)
    : null;
}

function readDeletions(value: unknown, problems: ProblemList): ShapedPatch['deletions'] {
  const read = <T>(key: string) => {
    const section = isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    return conformingEntries<T>(contractNodeAt(`deletions.${key}`), section, `deletions.${key}`, problems);
  };
  if (value !== undefined && !isPlainObject(value))
    checkShape(patchContract.properties.get('deletions')!, value, 'deletions', problems);
  return {
    present: value !== undefined,
    tables: read('tables'),
    columns: read('columns'),
    indexes: read('indexes'),
    relationships: read('relationships'),
    groups: read('groups'),
    sticky_notes: read('sticky_notes'),
  };
}

function namesOf(rejected: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  for (const entry of rejected)
    if (isPlainObject(entry))
      for (const key of ['name', 'old_name']) if (typeof entry[key] === 'string') names.add(entry[key]);
  return names;
}

export function readShapedPatch(patch: NormalizedPatchObject, problems: ProblemList): ShapedPatch {
  const section = <T>(key: keyof NormalizedPatchObject, rejected?: unknown[]) =>
    conformingEntries<T>(contractNodeAt(key), patch[key], key, problems, rejected);
  const rejectedTables: unknown[] = [];
  const rejectedGroups: unknown[] = [];
  return {
    strategy: readStrategy(patch.strategy, problems),
    tables: section('tables', rejectedTables),
    groups: section('groups', rejectedGroups),
    rejectedTableNames: namesOf(rejectedTables),
    rejectedGroupNames: namesOf(rejectedGroups),
    relationships: section('relationships'),
    sticky_notes: section('sticky_notes'),
    deletions: readDeletions(patch.deletions, problems),
  };
}
