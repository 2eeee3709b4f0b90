// Answers with bytes a service prepared, honouring conditional requests: the ETag always, and 304 with
// no body when If-None-Match matches.
import { ifNoneMatchMatches } from '@dss/platform';
import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';

export interface Representation {
  /** The bytes as the service gave them, or as the gateway keeps them (see representation-cache.ts). */
  body: string | Buffer;
  etag: string;
  content_type: string;
}

export function sendRepresentation(
  req: Request,
  res: Response,
  representation: Representation,
  options: { vary?: string } = {},
): void {
  setRepresentationHeaders(res, representation, options.vary);
  if (ifNoneMatchMatches(req.get('if-none-match'), representation.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type(representation.content_type).send(representation.body);
}

/** The headers of every answer with a representation, 200 or 304 (also used before routing). */
export function setRepresentationHeaders(res: ServerResponse, representation: Representation, vary?: string) {
  if (vary) res.setHeader('Vary', vary);
  res.setHeader('ETag', representation.etag);
  // Personal, but revalidatable: a client may keep it and ask again with If-None-Match.
  res.setHeader('Cache-Control', 'private, no-cache');
}
