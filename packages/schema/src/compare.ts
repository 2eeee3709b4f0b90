// One ordering for every sorted list the package produces: plain UTF-16 code-unit order, the same on every
// machine and locale (localeCompare would depend on the ICU data of the running Node).

export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Compares tuples of strings field by field. */
export function compareTuples(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const order = compareStrings(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}
