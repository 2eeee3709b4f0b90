// The review conversation of a proposal (dss.v1.Proposals): comments and their threads, requests for
// changes, and revisions. A token (REST, MCP) acts by its principal, a person (web app, operator CLI) by user
// id; either must belong to the proposal's team, else the same not_found as an unknown proposal. Every write
// holds the proposal's row lock, touches the proposal (its status counts change) and announces itself.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  invalidField,
  isUuid,
  ServiceError,
  type ServiceClient,
  type ServiceHandlers,
  withTransaction,
} from '@dss/platform';
import { MAX_PROPOSAL_MESSAGE_CHARACTERS } from '@dss/schema';
import type { Pool, PoolClient } from 'pg';
import { checkedAnchor } from './anchors';
import * as conversation from './conversation-repository';
import { type Announce, settleExpiry } from './events';
import { lintChange, teamLintConfig } from './lint';
import { checkProposedPatch } from './proposed-patch';
import * as repo from './repository';
import { boundedText, callerOf, canEdit, characters, proposalNotFound } from './requests';
import { toComment, type toProposal, toRevision } from './wire';

/** A comment's body, in characters: plain text, shown inert. */
export const MAX_COMMENT_CHARACTERS = 4000;
/** Revisions of one proposal, the patch it was sent with included. */
export const MAX_REVISIONS = 20;
/** Comments of one proposal; a conversation longer than this is better had in a new proposal. */
export const MAX_COMMENTS = 1000;

interface ConversationDeps {
  pool: Pool;
  accounts: ServiceClient<'Accounts'>;
  diagrams: ServiceClient<'Diagrams'>;
  announce: Announce;
  answer: (row: repo.ProposalRow) => ReturnType<typeof toProposal>;
  /** The reviewer (an owner or editor) of a review call, checked with accounts. */
  reviewed(request: {
    uuid: string;
    user_id: string;
    team_id: string;
  }): Promise<{ uuid: string; userId: string }>;
}

interface ActorInput {
  principal?: { user_id: string; team_id: string; role: string } | null;
  user_id?: string;
}

interface Actor {
  userId: string;
  kind: conversation.AuthorKind;
  role: string;
}

export function createConversationHandlers(
  deps: ConversationDeps,
): Pick<
  ServiceHandlers<'Proposals'>,
  'AddComment' | 'ListComments' | 'ResolveComment' | 'RequestChanges' | 'SubmitRevision' | 'ListRevisions'
> {
  const { pool, accounts, diagrams, announce, answer } = deps;

  /** The proposal and who acts on it; anyone outside the proposal's team gets not_found. */
  async function visible(actor: ActorInput | null | undefined, uuid: string) {
    if (!isUuid(uuid)) throw proposalNotFound();
    const row = await repo.findProposal(pool, uuid.toLowerCase());
    if (!row) throw proposalNotFound();
    if (actor?.principal?.user_id) {
      const caller = callerOf(actor.principal as Parameters<typeof callerOf>[0]);
      if (caller.teamId !== row.team_id) throw proposalNotFound();
      return { row, actor: { userId: caller.userId, kind: 'token', role: caller.role } satisfies Actor };
    }
    const userId = actor?.user_id ?? '';
    if (!isUuid(userId)) throw invalidField('actor', 'is required: a principal or the UUID of a user');
    const membership = await accounts
      .GetMembership({ team_id: row.team_id, user_id: userId.toLowerCase() })
      .catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === 'not_found') throw proposalNotFound();
        throw error;
      });
    return {
      row,
      actor: { userId: userId.toLowerCase(), kind: 'person', role: membership.role } satisfies Actor,
    };
  }

  /** Runs `work` on the proposal's locked row, an expiry found on the way stored first. */
  async function locked<T>(uuid: string, work: (client: PoolClient, row: repo.ProposalRow) => Promise<T>) {
    const outcome = await withTransaction(pool, async (client) => {
      const row = await repo.findProposalForUpdate(client, uuid);
      if (!row) throw proposalNotFound();
      try {
        return { ok: await work(client, await settleExpiry(client, row, announce)) };
      } catch (error) {
        // A refusal after the expiry was stored keeps the expiry (the transaction still commits).
        if (error instanceof ServiceError) return { refused: error };
        throw error;
      }
    });
    if ('refused' in outcome) throw outcome.refused;
    return outcome.ok as T;
  }

  async function threadStart(client: PoolClient, proposalUuid: string, replyTo: string) {
    const parent = isUuid(replyTo)
      ? await conversation.findComment(client, proposalUuid, replyTo.toLowerCase())
      : null;
    if (!parent) throw invalidField('reply_to', 'names no comment of this proposal');
    return parent.reply_to ?? parent.id;
  }

  return {
    async AddComment(request) {
      const body = boundedText('body', request.body, MAX_COMMENT_CHARACTERS);
      const replyTo = request.reply_to ?? '';
      const anchorTable = request.anchor?.table ?? '';
      const anchorColumn = request.anchor?.column ?? undefined;
      if (anchorTable === '' && anchorColumn !== undefined)
        throw invalidField('anchor.table', 'is required with anchor.column');
      if (replyTo !== '' && anchorTable !== '')
        throw invalidField('anchor', "must not be given with reply_to: a reply takes its thread's anchor");
      const { row, actor } = await visible(request.actor, request.uuid);
      const comment = await locked(row.uuid, async (client, current) => {
        if ((await conversation.countComments(client, current.uuid)) >= MAX_COMMENTS)
          throw new ServiceError('conflict', `a proposal takes at most ${MAX_COMMENTS} comments`);
        const root = replyTo === '' ? null : await threadStart(client, current.uuid, replyTo);
        const anchor =
          anchorTable === ''
            ? null
            : checkedAnchor(await repo.findPatch(client, current.uuid), {
                table: anchorTable,
                column: anchorColumn,
              });
        const written = await conversation.insertComment(client, {
          id: randomUUID(),
          proposal_uuid: current.uuid,
          revision: current.revision,
          reply_to: root,
          anchor_table: anchor?.table ?? null,
          anchor_column: anchor?.column ?? null,
          body,
          author_user_id: actor.userId,
          author_kind: actor.kind,
          kind: 'comment',
        });
        const touched = await repo.transition(client, current.uuid, { kind: 'touched' });
        await announce(client, touched, 'commented', { comment_id: written.id });
        return written;
      });
      return toComment(comment);
    },

    async ListComments(request) {
      const { row } = await visible(request.actor, request.uuid);
      return { comments: (await conversation.listComments(pool, row.uuid)).map(toComment) };
    },

    async ResolveComment(request) {
      const { row, actor } = await visible(request.actor, request.uuid);
      const comment = await locked(row.uuid, async (client, current) => {
        const found = isUuid(request.comment_id)
          ? await conversation.findComment(client, current.uuid, request.comment_id.toLowerCase())
          : null;
        if (!found) throw new ServiceError('not_found', 'no such comment on this proposal');
        const rootId = found.reply_to ?? found.id;
        const root = (await conversation.findComment(client, current.uuid, rootId))!;
        if (!canEdit(actor.role) && root.author_user_id !== actor.userId)
          throw new ServiceError(
            'editor_required',
            'only an owner or editor, or who started the thread, can resolve it',
          );
        if (root.resolved_at !== null) return root;
        await conversation.resolveThread(client, rootId, actor.userId);
        const touched = await repo.transition(client, current.uuid, { kind: 'touched' });
        await announce(client, touched, 'resolved', { comment_id: rootId });
        return (await conversation.findComment(client, current.uuid, rootId))!;
      });
      return toComment(comment);
    },

    async RequestChanges(request) {
      const message = boundedText('message', request.message, MAX_COMMENT_CHARACTERS);
      const { uuid, userId } = await deps.reviewed({
        uuid: request.uuid,
        user_id: request.user_id,
        team_id: '',
      });
      const row = await locked(uuid, async (client, current) => {
        if (current.state !== 'pending')
          throw new ServiceError(
            'conflict',
            `changes can be requested only on a pending proposal; this one is ${current.state}`,
          );
        const written = await conversation.insertComment(client, {
          id: randomUUID(),
          proposal_uuid: current.uuid,
          revision: current.revision,
          reply_to: null,
          anchor_table: null,
          anchor_column: null,
          body: message,
          author_user_id: userId,
          author_kind: 'person',
          kind: 'changes_requested',
        });
        const updated = await repo.transition(client, current.uuid, {
          kind: 'changes_requested',
          by: userId,
        });
        await announce(client, updated, 'changes_requested', { comment_id: written.id }, userId);
        return updated;
      });
      return answer(row);
    },

    async SubmitRevision(request) {
      const caller = callerOf(request.principal);
      if (characters(request.message) > MAX_PROPOSAL_MESSAGE_CHARACTERS)
        throw invalidField('message', `must be at most ${MAX_PROPOSAL_MESSAGE_CHARACTERS} characters`);
      const message = request.message.trim() === '' ? null : request.message;
      const { row } = await visible({ principal: request.principal }, request.uuid);
      const checked = await checkProposedPatch(
        diagrams,
        caller,
        request.principal,
        row.diagram_uuid,
        request.schema_json,
      );
      // The revision's findings replace the proposal's: the status counts and the apply gate judge the latest.
      const lint = lintChange(checked.before, checked.proposed, await teamLintConfig(pool, row.team_id));
      const revision = await locked(row.uuid, async (client, current) => {
        if (current.state !== 'pending')
          throw new ServiceError(
            'conflict',
            current.state === 'expired'
              ? 'the proposal has expired; a reviewer can reopen it first'
              : `only a pending proposal can be revised; this one is ${current.state}`,
          );
        if (current.revision >= MAX_REVISIONS)
          throw new ServiceError(
            'conflict',
            `a proposal takes at most ${MAX_REVISIONS} revisions; propose anew`,
          );
        const latest = await repo.findPatch(client, current.uuid);
        // Stored as jsonb, whose key order is its own: compared as values.
        if (isDeepStrictEqual(latest, JSON.parse(JSON.stringify(checked.patch))))
          throw new ServiceError('invalid_schema', `The patch is the same as revision ${current.revision}`, {
            errors: [{ path: '', message: `the patch is the same as revision ${current.revision}` }],
          });
        const written = await conversation.insertRevision(client, {
          proposal_uuid: current.uuid,
          number: current.revision + 1,
          patch: checked.patch,
          counts: checked.counts,
          message,
          author_user_id: caller.userId,
          // Checked against the diagram as it is now: this revision is rebased from here, not from the
          // proposal's first base, so what the author saw is what the stale-base check compares with.
          base_version_uuid: checked.baseVersionUuid,
        });
        const updated = await repo.transition(client, current.uuid, {
          kind: 'revised',
          revision: written.number,
          patch: checked.patch,
          counts: checked.counts,
          baseVersionUuid: checked.baseVersionUuid,
          lint,
        });
        await announce(client, updated, 'revised', { revision: written.number }, caller.userId);
        return written;
      });
      return toRevision(revision);
    },

    async ListRevisions(request) {
      const { row } = await visible(request.actor, request.uuid);
      return {
        revisions: (await conversation.listRevisions(pool, row.uuid)).map((revision) => toRevision(revision)),
      };
    },
  };
}
