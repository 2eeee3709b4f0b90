// Answers go compressed (brotli or gzip, as the browser accepts) by express's `compression` middleware. A
// diagram's page is mostly its drawing, which compresses about tenfold (the 300-table drawing's 2 MB to about
// 200 KB), and the live page's document.json about as well. Answers under 8 KB go as they are (a packet or
// two either way), and event streams are never compressed: a compressor holds back what is written until it
// has enough, and a live page's events must arrive when they are sent. Pages carry their CSRF token masked
// anew each time (signing.ts), so no secret repeats between compressed answers (BREACH).
import compression from 'compression';
import type { RequestHandler } from 'express';

/** Smaller answers are sent as they are. */
export const COMPRESS_MIN_BYTES = 8 * 1024;
/** zlib's level 3 and brotli's quality 4 (the middleware's): a few milliseconds per megabyte. */
const GZIP_LEVEL = 3;

export function compressAnswers(): RequestHandler {
  return compression({
    threshold: COMPRESS_MIN_BYTES,
    level: GZIP_LEVEL,
    filter: (req, res) =>
      !/^text\/event-stream\b/i.test(String(res.getHeader('Content-Type') ?? '')) &&
      compression.filter(req, res),
  }) as RequestHandler;
}
