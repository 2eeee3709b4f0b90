// The layout of a create from a JSON schema: validation (which places the tables), the document, and room
// for the lines where a large schema's drawing crowds them. Seconds of synchronous work at a few hundred
// tables under load, so the service runs it in a worker thread (create-layout.ts, entry
// create-layout-worker.ts) and keeps answering other calls meanwhile; small schemas call it in place.
import { makeRoomForLines } from '@dss/diagram-svg';
import { apply, type Driver, emptyDocument, type NormalizedPatch, validate } from '@dss/schema';

export interface CreateLayoutTask {
  driver: Driver;
  /** The normalized patch (`normalize(input).patch`), not yet validated. */
  patch: NormalizedPatch;
}

/** A failed validation as `validate` answers it, or the laid-out document as JSON text. */
export type CreateLayoutAnswer =
  | Extract<ReturnType<typeof validate>, { ok: false }>
  | { ok: true; tables: number; document_json: string };

export function layOutCreate({ driver, patch }: CreateLayoutTask): CreateLayoutAnswer {
  const result = validate(patch, null, driver, 'create');
  if (!result.ok) return result;
  const document = makeRoomForLines(apply(emptyDocument(driver), result.patch).document);
  // One string crosses the thread boundary instead of a cloned object graph.
  return { ok: true, tables: result.patch.tables.length, document_json: JSON.stringify(document) };
}
