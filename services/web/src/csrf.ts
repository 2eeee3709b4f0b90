// CSRF protection of every form post, in two independent checks: the request must come from this app's
// origin (Origin header, or Referer when a browser sends no Origin; a post with neither is refused), and
// it must carry the hidden `_csrf` field, an HMAC of the session id (or, before sign-in, of a random
// nonce kept in a cookie), compared in constant time.
import type { Request, RequestHandler, Response } from 'express';
import type { WebAppContext } from './app-context';
import { readCookie } from './cookies';
import { forbidden } from './page-errors';
import { viewerOf } from './session';

/** What the CSRF token of this request is bound to: the session, else the pre-sign-in nonce. */
export function csrfSubject(context: WebAppContext, req: Request, res: Response): string | null {
  const viewer = viewerOf(res);
  if (viewer) return `session:${viewer.sessionId}`;
  const nonce = readCookie(req, context.cookies.nonce);
  const value = nonce ? context.signer.unsign(nonce) : null;
  return value ? `nonce:${value}` : null;
}

export function csrfTokenFor(context: WebAppContext, req: Request, res: Response): string {
  const subject = csrfSubject(context, req, res);
  return subject ? context.signer.csrfToken(subject) : '';
}

export function sameOrigin(req: Request, appOrigin: string): boolean {
  const origin = req.get('origin');
  if (origin !== undefined) return origin === appOrigin;
  const referer = req.get('referer');
  if (!referer) return false;
  try {
    return new URL(referer).origin === appOrigin;
  } catch {
    return false;
  }
}

export function verifyFormPosts(context: WebAppContext): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const refusal = forbidden('The form could not be checked. Reload the page and try again.');
    if (!sameOrigin(req, context.appOrigin)) return next(refusal);
    const subject = csrfSubject(context, req, res);
    // A form carries the token as `_csrf`; the editor's JSON posts carry it in the X-CSRF-Token header.
    const token = (req.body as Record<string, unknown> | undefined)?._csrf ?? req.get('x-csrf-token');
    if (!subject || !context.signer.checkCsrfToken(subject, token)) return next(refusal);
    next();
  };
}
