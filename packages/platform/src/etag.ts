// Strong ETags from a hash of the exact bytes served (ARCHITECTURE.md, cross-cutting rules), so equal
// bytes always give equal tags and any change of a byte gives a new one.
import { createHash } from 'node:crypto';

export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether an If-None-Match header matches the current ETag (RFC 9110 §13.1.2: `*`, or a list of tags
 * compared weakly, so `W/"x"` matches `"x"`).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const current = opaque(etag);
  return header.split(',').some((candidate) => opaque(candidate) === current);
}
