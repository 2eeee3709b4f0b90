// What a diagram page needs to stay current without a reload: its event stream (Server-Sent Events: the
// diagram's new versions and who else is on it), the diagram's document as JSON (what the page fetches to
// redraw after an event), and the page's selection for the others to see. Team members only, as the page
// itself; the answers are JSON in the API's error shape, never a sign-in redirect (a script asks).
import { isServiceError } from '@dss/platform';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { HEARTBEAT_MS, type StreamOwner } from '../live/live-hub';
import { isTabId, tableName } from '../live/presence';
import { findVisibleDiagram, fullDocument, userNames } from '../lookups';
import { pageErrorOf } from '../page-errors';
import { viewerOf } from '../session';
import { principalFor } from '../viewer';

/** How often open streams are checked against their session and team (a revoked session stops there). */
export const ACCESS_RECHECK_MS = 4 * HEARTBEAT_MS;

export function liveRoutes(router: Router, context: WebAppContext): void {
  const { clients, live } = context;

  router.get(
    '/diagrams/:uuid/events',
    jsonRoute(async (req, res) => {
      const viewer = viewerOf(res)!;
      const tab = req.query.tab;
      if (tab !== undefined && !isTabId(tab))
        return sendError(res, 422, 'invalid_request', 'tab must be 8 to 64 letters, digits, - or _');
      const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
      const versions = await clients.diagrams.ListVersions({
        principal: principalFor(viewer, membership),
        uuid: diagram.uuid,
      });
      const current = versions.versions[0]?.uuid ?? '';
      // The version the page shows: the last event it received, or on the first connection the one drawn.
      const shown = req.get('last-event-id') ?? (typeof req.query.since === 'string' ? req.query.since : '');
      const opened = live.open(res, {
        diagramUuid: diagram.uuid,
        teamId: membership.team_id,
        sessionId: viewer.sessionId,
        user: viewer.user,
        tab: tab ?? null,
      });
      if (!opened.ok) {
        if (opened.reason === 'draining')
          return sendError(res, 503, 'unavailable', 'The server is restarting; connect again.', 1);
        return sendError(res, 429, 'rate_limited', 'Too many open live connections for this session.', 30);
      }
      // Whatever was saved while the page was away (a dropped network, a restart) is announced at once.
      if (shown !== '' && current !== '' && shown !== current)
        live.sendTo(
          opened.stream.id,
          diagram.uuid,
          'changed',
          { version_uuid: current, source: null },
          current,
        );
    }),
  );

  router.get(
    '/diagrams/:uuid/document.json',
    jsonRoute(async (req, res) => {
      const viewer = viewerOf(res)!;
      const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
      // Versions first: the document read after them is at least as new as the version named.
      const versions = await clients.diagrams.ListVersions({
        principal: principalFor(viewer, membership),
        uuid: diagram.uuid,
      });
      const document = await fullDocument(clients, viewer, membership, diagram);
      const latest = versions.versions[0];
      const names = latest ? await userNames(clients, [latest.author_user_id]) : new Map<string, string>();
      res.json({
        data: {
          uuid: diagram.uuid,
          name: diagram.name,
          driver: diagram.driver,
          status: diagram.status,
          version: latest
            ? {
                uuid: latest.uuid,
                number: latest.number,
                source: latest.source,
                created_at: latest.created_at,
                author: names.get(latest.author_user_id) ?? null,
              }
            : null,
          document,
        },
      });
    }),
  );

  router.post(
    '/diagrams/:uuid/presence',
    jsonRoute(async (req, res) => {
      const viewer = viewerOf(res)!;
      const form = (req.body ?? {}) as Record<string, unknown>;
      if (!isTabId(form.tab))
        return sendError(res, 422, 'invalid_request', 'tab must be 8 to 64 letters, digits, - or _');
      const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
      await live.select(
        { diagramUuid: diagram.uuid, teamId: membership.team_id, user: viewer.user, tab: form.tab },
        tableName(form.table),
      );
      res.status(204).end();
    }),
  );
}

/** Ends the streams of sessions that ended or of people who left the diagram's team. */
export function startAccessChecks(context: WebAppContext): { stop(): void } {
  const timer = setInterval(() => {
    void context.live.recheck(async (owner: StreamOwner) => {
      try {
        const session = await context.clients.accounts.GetSession({ session_id: owner.sessionId });
        return session.memberships.some((membership) => membership.team_id === owner.teamId);
      } catch (error) {
        if (isServiceError(error) && error.code === 'unauthenticated') return false;
        throw error;
      }
    });
  }, ACCESS_RECHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** A route that answers JSON: no session is 401, and a failure is the API's error shape, never a page. */
function jsonRoute(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req, res, next) => {
    if (!viewerOf(res)) return sendError(res, 401, 'unauthenticated', 'Sign in to see this diagram.');
    try {
      await handler(req, res);
    } catch (error) {
      if (res.headersSent) return void res.end();
      if (isServiceError(error) && error.code === 'unauthenticated')
        return sendError(res, 401, 'unauthenticated', 'Sign in again.');
      const failure = pageErrorOf(error);
      if (!failure) return next(error);
      sendError(res, failure.status, CODE_OF_STATUS[failure.status] ?? 'request_failed', failure.message);
    }
  };
}

const CODE_OF_STATUS: Record<number, string> = {
  400: 'invalid_request',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'invalid_request',
  503: 'unavailable',
};

function sendError(res: Response, status: number, code: string, message: string, retryAfterSeconds?: number) {
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  res.status(status).json({ error: { code, message } });
}
