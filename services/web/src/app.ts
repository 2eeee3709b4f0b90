// The web app's HTTP application: security headers on everything, form bodies, the signed-in person from
// the session cookie, CSRF checks on every form post, the pages, and one error handler that answers with
// an error page of the same layout (never a stack trace).
import { randomUUID } from 'node:crypto';
import { type HttpRequestFinished, isServiceError, runWithRequestContext } from '@dss/platform';
import express, { type ErrorRequestHandler } from 'express';
import type { WebAppContext } from './app-context';
import { compressAnswers } from './compression';
import { clearCookie } from './cookies';
import { csrfTokenFor, verifyFormPosts } from './csrf';
import { notFound, PageError, pageErrorOf } from './page-errors';
import { assetRoutes } from './routes/assets';
import { diagramRoutes } from './routes/diagram';
import { diagramLifecycleRoutes } from './routes/diagram-lifecycle';
import { compareRoutes } from './routes/compare';
import { drawRoutes } from './routes/draw';
import { editorRoutes } from './routes/editor';
import { exportRoutes } from './routes/exports';
import { homeRoutes } from './routes/home';
import { lintSettingsRoutes } from './routes/lint-settings';
import { auditLogRoutes } from './routes/audit-log';
import { liveRoutes } from './routes/live';
import { reviewRoutes } from './routes/review';
import { shareRoutes } from './routes/share';
import { signInRoutes } from './routes/sign-in';
import { ssoRoutes } from './routes/sso';
import { tokenRoutes } from './routes/tokens';
import { invitationRoutes, memberRoutes, passwordResetRoutes } from './routes/team-access';
import { versionRoutes } from './routes/versions';
import { webhookRoutes } from './routes/webhooks';
import { securityHeaders } from './security-headers';
import { loadViewer, viewerOf } from './session';
import { messagePage } from './views/layout';

/**
 * Form bodies are small: a review comment (4,000 characters, at most 16,000 bytes of UTF-8, three times that
 * URL-encoded) is the longest field.
 */
const FORM_BODY_LIMIT = '64kb';
const PASTE_BODY_LIMIT = '2mb';
const PASTE_PATH = /^\/diagrams\/(?:[^/]+\/(?:paste(?:\/apply)?|layout)|new)$/;
/** The editor's autosave (a JSON patch, as large as the API's) and its DBML pane (JSON text to read). */
const EDITS_PATH = /^\/diagrams\/[^/]+\/(?:edits|dbml)$/;

export interface WebAppOptions {
  trustProxy: boolean | number | string;
  /** Called when each response is finished, with the matched route template (metrics). */
  onRequestFinished?: (finished: HttpRequestFinished) => void;
}

export function createWebApp(context: WebAppContext, options: WebAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  app.use((req, res, next) => {
    const requestId = randomUUID();
    const started = process.hrtime.bigint();
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      // The route template, not the path, so ids do not multiply the metric's series.
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      options.onRequestFinished?.({
        method: req.method,
        route: String(route),
        status: res.statusCode,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    });
    runWithRequestContext({ requestId, clientIp: req.ip }, () => next());
  });
  app.use(securityHeaders());
  app.use(compressAnswers());

  const assets = express.Router();
  assetRoutes(assets);
  drawRoutes(assets);
  assets.get('/healthz', (_req, res) => {
    res.type('text/plain').send('ok\n');
  });
  app.use(assets);

  app.use((_req, res, next) => {
    // Pages depend on who is signed in; no shared cache may keep them.
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Forms are small, but for the paste-back box, whose patch may be as large as the API's (500KB,
  // larger once form-encoded).
  const smallForms = express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 20 });
  const pasteForms = express.urlencoded({ extended: false, limit: PASTE_BODY_LIMIT, parameterLimit: 20 });
  const editsJson = express.json({ limit: PASTE_BODY_LIMIT });
  app.use((req, res, next) =>
    (EDITS_PATH.test(req.path) ? editsJson : PASTE_PATH.test(req.path) ? pasteForms : smallForms)(
      req,
      res,
      next,
    ),
  );
  app.use(loadViewer(context));
  app.use(verifyFormPosts(context));

  const pages = express.Router({ caseSensitive: true, strict: false });
  signInRoutes(pages, context);
  ssoRoutes(pages, context);
  homeRoutes(pages, context);
  // Before the diagram routes, so `/diagrams/new` is not read as a diagram id.
  editorRoutes(pages, context);
  diagramRoutes(pages, context);
  liveRoutes(pages, context);
  diagramLifecycleRoutes(pages, context);
  versionRoutes(pages, context);
  compareRoutes(pages, context);
  exportRoutes(pages, context);
  shareRoutes(pages, context);
  reviewRoutes(pages, context);
  tokenRoutes(pages, context);
  webhookRoutes(pages, context);
  for (const mount of [memberRoutes, invitationRoutes, passwordResetRoutes]) mount(pages, context);
  lintSettingsRoutes(pages, context);
  auditLogRoutes(pages, context);
  app.use(pages);

  app.use((_req, _res, next) => next(notFound()));
  app.use(errorPage(context));
  return app;
}

function errorPage(context: WebAppContext): ErrorRequestHandler {
  return (error, req, res, _next) => {
    // The session ended between the cookie check and a later call: sign in again, as for no session.
    if (isServiceError(error) && error.code === 'unauthenticated' && !res.headersSent) {
      clearCookie(res, context.cookies, context.cookies.session);
      const next = req.method === 'GET' ? `?next=${encodeURIComponent(req.originalUrl)}` : '';
      res.redirect(303, `/sign-in${next}`);
      return;
    }
    let failure = pageErrorOf(error);
    if (!failure && isBodyError(error))
      failure = new PageError(400, 'That did not work', 'The form could not be read.');
    if (!failure) {
      context.logger.error({ err: error, path: req.path }, 'page failed');
      failure = new PageError(500, 'Something went wrong', 'The page could not be shown. Try again shortly.');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    const viewer = viewerOf(res);
    res.status(failure.status).setHeader('Cache-Control', 'no-store');
    res.type('html').send(
      messagePage(
        {
          title: failure.heading,
          viewer: viewer ? { ...viewer.user, csrfToken: csrfTokenFor(context, req, res) } : undefined,
        },
        failure.heading,
        failure.message,
      ).text,
    );
  };
}

function isBodyError(error: unknown): boolean {
  const status = (error as { status?: unknown; type?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
