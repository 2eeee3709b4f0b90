// Cookie names and flags. Over https the names carry the `__Host-` prefix (the browser then insists on
// Secure, Path=/ and no Domain, so no sibling subdomain can plant or read them); over plain http (local
// `npm start`) the prefix is not allowed, so the names are plain.
import type { Request, Response } from 'express';

export interface CookieSettings {
  secure: boolean;
  session: string;
  /** The pre-sign-in nonce that the sign-in form's CSRF token is bound to. */
  nonce: string;
  /** A single sign-on in progress: its state, nonce and PKCE verifier, until the provider sends the person back. */
  sso: string;
}

export function cookieSettings(appUrl: string): CookieSettings {
  const secure = new URL(appUrl).protocol === 'https:';
  const prefix = secure ? '__Host-' : '';
  return { secure, session: `${prefix}dss_session`, nonce: `${prefix}dss_signin`, sso: `${prefix}dss_sso` };
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function setCookie(
  res: Response,
  settings: CookieSettings,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  res.cookie(name, value, {
    httpOnly: true,
    secure: settings.secure,
    sameSite: 'lax',
    path: '/',
    maxAge: maxAgeSeconds * 1000,
  });
}

export function clearCookie(res: Response, settings: CookieSettings, name: string): void {
  res.clearCookie(name, { httpOnly: true, secure: settings.secure, sameSite: 'lax', path: '/' });
}
