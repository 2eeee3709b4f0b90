// Resolving the session cookie to the signed-in person (accounts owns sessions), and the guard that sends
// anonymous page requests to the sign-in page with a `next` that can only be a local path.
import { isServiceError, setRequestActor } from '@dss/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { WebAppContext } from './app-context';
import { clearCookie, readCookie } from './cookies';
import type { Viewer } from './viewer';

export function loadViewer(context: WebAppContext): RequestHandler {
  return async (req, res, next) => {
    const signed = readCookie(req, context.cookies.session);
    const sessionId = signed ? context.signer.unsign(signed) : null;
    if (!sessionId) {
      if (signed) clearCookie(res, context.cookies, context.cookies.session);
      return next();
    }
    try {
      const session = await context.clients.accounts.GetSession({ session_id: sessionId });
      res.locals.viewer = {
        sessionId,
        user: { id: session.user!.id, email: session.user!.email, name: session.user!.name },
        memberships: session.memberships,
      } satisfies Viewer;
      // The services record this person as the actor of whatever this request changes.
      setRequestActor({ kind: 'user', id: session.user!.id });
    } catch (error) {
      if (!isServiceError(error) || error.code !== 'unauthenticated') return next(error);
      clearCookie(res, context.cookies, context.cookies.session);
    }
    next();
  };
}

export function viewerOf(res: Response): Viewer | undefined {
  return res.locals.viewer as Viewer | undefined;
}

/** Page requests without a session go to sign-in, and come back to where they were going. */
export function requireViewer(req: Request, res: Response, next: NextFunction): void {
  if (viewerOf(res)) {
    next();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.redirect(303, '/sign-in');
    return;
  }
  res.redirect(303, `/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
}

/**
 * A `next` value that stays on this site: one leading slash followed by something other than a slash or
 * a backslash (browsers read `//host` and `/\host` as another host), no control characters.
 */
export function localPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 2000) return '/';
  if (!/^\/(?![/\\])/.test(raw) || raw.includes('\\') || hasControlCharacter(raw)) return '/';
  return raw;
}

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
