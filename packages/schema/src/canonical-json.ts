// Canonical JSON text (object keys in code-unit order, arrays in order): the input of the content hashes,
// and how diff compares values. No Node module here: diff runs in the browser too.

/** JSON text with object keys in code-unit order; `undefined` members are dropped as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    members.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  }
  return `{${members.join(',')}}`;
}
