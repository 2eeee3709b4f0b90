// The document of a successful conversion, which leaves the worker thread as JSON text.
import type { Conversion, ConvertResult } from '@dss/ddl';

type ConvertedDocument = Extract<ConvertResult, { ok: true }>['document'];

export function documentOf(conversion: Conversion): ConvertedDocument {
  if (!conversion.ok) throw new Error(`expected a document, got ${conversion.code}: ${conversion.message}`);
  return JSON.parse(conversion.document_json) as ConvertedDocument;
}
