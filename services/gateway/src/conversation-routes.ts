// The /v1 routes of a proposal's review conversation: its comment threads and its revisions. The gateway
// checks the shape of each body (field types, the patch's size) and the proposals service decides the
// rest (lengths, anchors, threads, team, role, state). Another team's proposal answers 404 on every path.
import type { ServiceClient } from '@dss/platform';
import type { Request } from 'express';
import type { RouteSpec } from './app';
import { objectBody } from './app';
import type { Principal } from './authenticator';
import { uuidOf, wirePrincipal } from './diagram-routes';
import { invalidBodyField, schemaJsonOf } from './proposal-routes';

type ProposalsClient = ServiceClient<'Proposals'>;
type CommentMessage = Awaited<ReturnType<ProposalsClient['AddComment']>>;
type RevisionMessage = Awaited<ReturnType<ProposalsClient['SubmitRevision']>>;

function optionalString(body: Record<string, unknown>, path: string): string {
  const value = body[path];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalidBodyField(path, 'must be a string');
  return value;
}

/** A comment as the API shows it: its thread (`reply_to`), anchor and resolution, who wrote it and when. */
export function commentResource(comment: CommentMessage) {
  return {
    id: comment.id,
    revision: comment.revision,
    anchor: comment.anchor?.table
      ? { table: comment.anchor.table, ...(comment.anchor.column ? { column: comment.anchor.column } : {}) }
      : null,
    reply_to: comment.reply_to || null,
    kind: comment.kind,
    body: comment.body,
    author: { kind: comment.author_kind, user_uuid: comment.author_user_id },
    created_at: comment.created_at,
    resolved_at: comment.resolved_at ?? null,
    resolved_by: comment.resolved_by ?? null,
  };
}

/** A revision as the API shows it: counts only, never names or values from its patch. */
export function revisionResource(revision: RevisionMessage) {
  const counts = revision.counts;
  return {
    number: revision.number,
    message: revision.message ?? null,
    counts: {
      tables: counts?.tables ?? 0,
      columns: counts?.columns ?? 0,
      relationships: counts?.relationships ?? 0,
      groups: counts?.groups ?? 0,
      sticky_notes: counts?.sticky_notes ?? 0,
      deletions: counts?.deletions ?? 0,
    },
    author: { user_uuid: revision.author_user_id },
    created_at: revision.created_at,
    base_version_uuid: revision.base_version_uuid || null,
  };
}

function commentRequest(body: Record<string, unknown>) {
  const text = body.body;
  if (text === undefined || text === null) throw invalidBodyField('body', 'is required');
  if (typeof text !== 'string') throw invalidBodyField('body', 'must be a string');
  const anchor = body.anchor;
  let wireAnchor: { table: string; column?: string } | null = null;
  if (anchor !== undefined && anchor !== null) {
    if (typeof anchor !== 'object' || Array.isArray(anchor))
      throw invalidBodyField('anchor', 'must be an object: {table, column?}');
    const fields = anchor as Record<string, unknown>;
    if (typeof fields.table !== 'string' || fields.table.trim() === '')
      throw invalidBodyField('anchor.table', 'is required: the name of a table of the proposal’s changes');
    if (fields.column !== undefined && fields.column !== null && typeof fields.column !== 'string')
      throw invalidBodyField('anchor.column', 'must be a string');
    wireAnchor = {
      table: fields.table.trim(),
      ...(typeof fields.column === 'string' ? { column: fields.column.trim() } : {}),
    };
  }
  return { body: text, anchor: wireAnchor, reply_to: optionalString(body, 'reply_to') };
}

function revisionRequest(body: Record<string, unknown>) {
  return { schema_json: schemaJsonOf(body), message: optionalString(body, 'message') };
}

const actorOf = (principal: Principal) => ({ principal: wirePrincipal(principal), user_id: '' });
const commentIdOf = (req: Request) => (typeof req.params.id === 'string' ? req.params.id : '');

export function conversationRoutes(proposals: ProposalsClient): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/proposals/:uuid/comments',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        const list = await proposals.ListComments({ actor: actorOf(principal), uuid: uuidOf(req) });
        res.json({ data: list.comments.map(commentResource) });
      },
    },
    {
      method: 'post',
      path: '/proposals/:uuid/comments',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const written = await proposals.AddComment({
          actor: actorOf(principal),
          uuid: uuidOf(req),
          ...commentRequest(objectBody(req)),
        } as Parameters<ProposalsClient['AddComment']>[0]);
        res.status(201).json({ data: commentResource(written) });
      },
    },
    {
      method: 'post',
      path: '/proposals/:uuid/comments/:id/resolve',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const thread = await proposals.ResolveComment({
          actor: actorOf(principal),
          uuid: uuidOf(req),
          comment_id: commentIdOf(req),
        });
        res.json({ data: commentResource(thread) });
      },
    },
    {
      method: 'get',
      path: '/proposals/:uuid/revisions',
      operation: 'read',
      write: false,
      handler: async (req, res, principal) => {
        const list = await proposals.ListRevisions({ actor: actorOf(principal), uuid: uuidOf(req) });
        res.json({ data: list.revisions.map(revisionResource) });
      },
    },
    {
      method: 'post',
      path: '/proposals/:uuid/revisions',
      operation: 'write',
      write: true,
      handler: async (req, res, principal) => {
        const revision = await proposals.SubmitRevision({
          principal: wirePrincipal(principal),
          uuid: uuidOf(req),
          ...revisionRequest(objectBody(req)),
        });
        res.status(201).json({ data: revisionResource(revision) });
      },
    },
  ];
}
