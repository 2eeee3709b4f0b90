// Content hashes for ETags. Both hash a canonical JSON text (object keys sorted, arrays in order), so two
// equal documents hash the same whatever order their keys were written in.
// Node's crypto stays in this file: apply, diff and the rest are bundled for the browser, and use only
// canonicalJson (from canonical-json.ts, exported here too).
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
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

export { canonicalJson };

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
