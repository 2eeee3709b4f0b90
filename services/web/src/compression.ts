// Answers sent whole (`res.send`: pages, JSON, stylesheets and scripts) go gzip-compressed to a browser that
// accepts it. A diagram's page is mostly its drawing, which compresses about tenfold (the 300-table drawing's
// 2 MB to about 200 KB), and the live page's document.json about as well. gzip's level 3 does that in a few
// milliseconds per megabyte, in libuv's thread pool rather than on the event loop. Event streams write
// their events themselves and are never held back by this. Pages carry their CSRF token masked anew each
// time (signing.ts), so no secret repeats between compressed answers.
import { gzip } from 'node:zlib';
import type { RequestHandler, Response } from 'express';

/** Smaller answers are sent as they are: a packet or two either way. */
export const COMPRESS_MIN_BYTES = 8 * 1024;
const GZIP_LEVEL = 3;
const COMPRESSIBLE =
  /^(?:text\/(?:html|css|javascript|plain)|application\/(?:json|javascript|xml)|image\/svg\+xml)\b/i;

export function compressAnswers(): RequestHandler {
  return (req, res, next) => {
    const accepts = acceptsGzip(req.get('accept-encoding'));
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      res.send = send;
      const bytes =
        typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : 0;
      if (bytes < COMPRESS_MIN_BYTES || res.getHeader('Content-Encoding') !== undefined) return send(body);
      // What express's send gives a string with no type of its own.
      if (typeof body === 'string' && res.getHeader('Content-Type') === undefined) res.type('html');
      const type = String(res.getHeader('Content-Type') ?? '');
      if (!COMPRESSIBLE.test(type)) return send(body);
      // express's send names a string's charset; a Buffer's it leaves as it is.
      if (typeof body === 'string' && !/;\s*charset=/i.test(type))
        res.setHeader('Content-Type', `${type}; charset=utf-8`);
      res.vary('Accept-Encoding');
      if (!accepts || req.method === 'HEAD') return send(body);
      const whole = typeof body === 'string' ? Buffer.from(body) : (body as Buffer);
      gzip(whole, { level: GZIP_LEVEL }, (error, zipped) => {
        if (!writable(res)) return;
        if (error) {
          send(body);
          return;
        }
        res.setHeader('Content-Encoding', 'gzip');
        send(zipped);
      });
      return res;
    };
    next();
  };
}

/** Whether an Accept-Encoding header accepts gzip (not refused with q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const [coding = '', ...parameters] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') continue;
    const quality = parameters.map((parameter) => parameter.trim()).find((p) => p.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  }
  return false;
}

function writable(res: Response): boolean {
  return !res.headersSent && !res.writableEnded && !res.destroyed;
}
