// The CSRF token of a form shown before sign-in (sign-in, forgot password, accept an invitation): bound to
// a random nonce in a signed cookie of its own; an existing nonce is kept, so a second tab stays valid.
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { WebAppContext } from './app-context';
import { readCookie, setCookie } from './cookies';

const NONCE_COOKIE_SECONDS = 60 * 60;

export function anonymousCsrfToken(context: WebAppContext, req: Request, res: Response): string {
  const existing = readCookie(req, context.cookies.nonce);
  const nonce = (existing && context.signer.unsign(existing)) || randomBytes(24).toString('base64url');
  setCookie(res, context.cookies, context.cookies.nonce, context.signer.sign(nonce), NONCE_COOKIE_SECONDS);
  return context.signer.csrfToken(`nonce:${nonce}`);
}
