// The exact bytes the read endpoints serve, computed once per change of the document and stored beside
// it, so a read only copies stored text. Each ETag hashes the bytes it belongs to: a canvas-only edit
// leaves the schema bytes (and so their ETags) unchanged and changes the full document's.
import { strongEtag } from '@dss/platform';
import { type DiagramDocument, renderMarkdown, toFullDocument, toSchema } from '@dss/schema';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const MARKDOWN_CONTENT_TYPE = 'text/markdown; charset=utf-8';

export interface StoredRepresentations {
  schema_json: string;
  schema_json_etag: string;
  markdown_detailed: string;
  markdown_detailed_etag: string;
  markdown_simple: string;
  markdown_simple_etag: string;
  full_document_json: string;
  full_document_etag: string;
}

export function buildRepresentations(document: DiagramDocument): StoredRepresentations {
  const schemaJson = JSON.stringify({ data: toSchema(document) });
  const detailed = renderMarkdown(document, 'detailed');
  const simple = renderMarkdown(document, 'simple');
  const full = JSON.stringify({ data: toFullDocument(document) });
  return {
    schema_json: schemaJson,
    schema_json_etag: strongEtag(schemaJson),
    markdown_detailed: detailed,
    markdown_detailed_etag: strongEtag(detailed),
    markdown_simple: simple,
    markdown_simple_etag: strongEtag(simple),
    full_document_json: full,
    full_document_etag: strongEtag(full),
  };
}
