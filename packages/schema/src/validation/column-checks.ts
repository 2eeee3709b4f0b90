// A column entry's type and flags: the type resolves for the driver (with `length` and `enum_values`
// folded in), and the flags fit the type (`is_unsigned` only where the catalog allows it, and so on).
import { parseDataTypeShared } from '../catalog/resolve';
import type { Driver } from '../model';
import type { ResolvedDataType } from '../patch-types';
import { type ProblemList, pathOf, quoteName } from './problem-list';
import type { Located, ShapedColumn } from './shaped-types';

export interface ResolvedColumn {
  located: Located<ShapedColumn>;
  /** Shared with the type catalog's memo: read it, copy it before handing it out. */
  dataType: ResolvedDataType;
  /** `is_unsigned` as sent, or as written into the type (`int unsigned`). */
  isUnsigned: boolean | undefined;
}

export function resolveColumn(
  driver: Driver,
  located: Located<ShapedColumn>,
  problems: ProblemList,
): ResolvedColumn | null {
  const column = located.entry;
  // The entry carries the extras (`length`, `enum_values`) under the names the catalog reads.
  const resolution = parseDataTypeShared(driver, column.type, column);
  if (!resolution.ok) {
    problems.add(
      pathOf(located.path, resolution.source),
      `column ${quoteName(column.name)}: ${resolution.message}`,
    );
    return null;
  }
  const { entry, modifiers, type } = resolution;
  let isUnsigned = column.is_unsigned;
  if (modifiers.unsigned !== undefined) {
    if (isUnsigned !== undefined && isUnsigned !== modifiers.unsigned) {
      problems.add(
        pathOf(located.path, 'is_unsigned'),
        `is_unsigned contradicts the type ${quoteName(column.type)}`,
      );
      return null;
    }
    isUnsigned = modifiers.unsigned;
  }
  let valid = true;
  if (isUnsigned === true && !entry.options.includes('unsigned')) {
    problems.add(pathOf(located.path, 'is_unsigned'), `${entry.name} on ${driver} cannot be unsigned`);
    valid = false;
  }
  if (column.is_auto_increment === true) {
    const canIncrement = entry.options.includes('auto_increment') || entry.options.includes('identity');
    const scale = type.params?.scale ?? 0;
    if (!canIncrement || scale > 0) {
      const what = canIncrement ? `${entry.name} with a scale` : entry.name;
      problems.add(pathOf(located.path, 'is_auto_increment'), `${what} on ${driver} cannot auto-increment`);
      valid = false;
    }
  }
  return valid ? { located, dataType: type, isUnsigned } : null;
}
