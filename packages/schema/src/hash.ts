// Content hashes for ETags. Both hash a canonical JSON text (object keys sorted, arrays in order), so two
// equal documents hash the same whatever order their keys were written in.
import { createHash } from 'node:crypto';
import type { DiagramDocument } from './model';
import { type SchemaSource, toFullDocument, toSchema } from './project';

/**
 * Hash of the schema response: tables, columns, indexes, relationships and their comments. Canvas
 * positions, sizes, colors, groups and sticky notes are not part of it, so moving a table keeps the ETag.
 */
export function schemaHash(source: SchemaSource): string {
  return sha256(canonicalJson(toSchema(source)));
}

/** Hash of the full document response: every schema and canvas field, groups and sticky notes. */
export function documentHash(document: DiagramDocument): string {
  return sha256(canonicalJson(toFullDocument(document)));
}

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

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
