// Answers with bytes a service prepared, honouring conditional requests: the ETag always, and 304 with
// no body when If-None-Match matches.
import { ifNoneMatchMatches } from '@dss/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Representation {
  /** The bytes as the service gave them, or as the gateway keeps them (see representation-cache.ts). */
  body: string | Buffer;
  etag: string;
  content_type: string;
}

export function sendRepresentation(
  req: IncomingMessage,
  res: ServerResponse,
  representation: Representation,
  options: { vary?: string } = {},
): void {
  setRepresentationHeaders(res, representation, options.vary);
  if (ifNoneMatchMatches(req.headers['if-none-match'], representation.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  // Written as Express's res.send would (same bytes and headers), so requests answered in front of
  // Express (quick-answers.ts) and through it cannot differ.
  res.statusCode = 200;
  res.setHeader('Content-Type', representation.content_type);
  res.setHeader('Content-Length', Buffer.byteLength(representation.body));
  res.end(representation.body);
}

/** The headers of every answer with a representation, 200 or 304. */
export function setRepresentationHeaders(res: ServerResponse, representation: Representation, vary?: string) {
  if (vary) res.setHeader('Vary', vary);
  res.setHeader('ETag', representation.etag);
  // Personal, but revalidatable: a client may keep it and ask again with If-None-Match.
  res.setHeader('Cache-Control', 'private, no-cache');
}
