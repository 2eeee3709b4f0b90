// Security headers on every response. The policy allows only this origin's scripts, styles and images
// (plus data: images), so even markup that slipped through escaping could not run a script; there is no
// inline script or style anywhere in the app. Pages may not be framed, except the embed view, which its
// own route widens to this origin (see README, "Security model").
import type { RequestHandler } from 'express';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

export const EMBED_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "frame-ancestors 'none'",
  "frame-ancestors 'self'",
);

export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    next();
  };
}
