// The gRPC surface of proposals (dss.v1.Proposals). Calls that start from a REST client carry the
// caller's principal and see only the caller's team; review calls (web app, operator CLI) name the
// reviewer, who must be an owner or editor of the proposal's team (asked of accounts).
//
// Every transition writes the row and a `proposals.changed` event (outbox) in one transaction. A pending
// proposal past `expires_at` reads as expired at once; a review call that finds one stores the expiry
// (and announces it) before answering, so the event stream never skips it.
import { randomUUID } from 'node:crypto';
import {
  invalidField,
  isUuid,
  ServiceError,
  type ServiceClient,
  type ServiceHandlers,
  withTransaction,
} from '@dss/platform';
import {
  MAX_DECLINE_REASON_CHARACTERS,
  MAX_PROPOSAL_MESSAGE_CHARACTERS,
  MAX_PROPOSAL_TITLE_CHARACTERS,
} from '@dss/schema';
import type { Pool, PoolClient } from 'pg';
import { anchorsOf } from './anchors';
import { createConversationHandlers } from './conversation';
import * as conversation from './conversation-repository';
import { type Announce, settleExpiry } from './events';
import { createLintHandlers, lintChange, lintGate, teamLintConfig } from './lint';
import { proposedChange } from './proposed-change';
import { checkProposedPatch } from './proposed-patch';
import * as repo from './repository';
import { boundedText, callerOf, canEdit, characters, proposalNotFound } from './requests';
import { toProposal, toRevision } from './wire';

export { type Announce, createAnnounce, PROPOSALS_CHANGED_SUBJECT, type ProposalEventKind } from './events';

export interface ProposalsHandlerDeps {
  pool: Pool;
  appUrl: string;
  lifetimeSeconds: number;
  accounts: ServiceClient<'Accounts'>;
  diagrams: ServiceClient<'Diagrams'>;
  announce: Announce;
}

const closedBecause: Record<repo.StoredState, string> = {
  pending: 'it is still pending',
  applied: 'it was already applied',
  declined: 'it was declined, and a declined proposal is closed',
  expired: 'it has expired; reopen it first',
};

export function conflict(action: string, state: repo.StoredState): ServiceError {
  return new ServiceError('conflict', `the proposal cannot be ${action}: ${closedBecause[state]}`);
}

export function createProposalsHandlers(deps: ProposalsHandlerDeps): ServiceHandlers<'Proposals'> {
  const { pool, appUrl, accounts, diagrams, announce } = deps;
  const answer = (row: repo.ProposalRow) => toProposal(row, appUrl);

  async function reviewer(teamId: string, userId: string): Promise<string> {
    if (!isUuid(userId)) throw invalidField('user_id', 'must be the UUID of the reviewer');
    const membership = await accounts
      .GetMembership({ team_id: teamId, user_id: userId.toLowerCase() })
      .catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === 'not_found')
          throw new ServiceError('forbidden', "the reviewer is not a member of the diagram's team");
        throw error;
      });
    if (!canEdit(membership.role))
      throw new ServiceError('editor_required', 'only an owner or editor of the team can review proposals');
    return userId.toLowerCase();
  }

  /** The proposal a review call names, with its reviewer checked. */
  async function reviewed(request: { uuid: string; user_id: string; team_id: string }) {
    if (!isUuid(request.uuid)) throw proposalNotFound();
    const row = await repo.findProposal(pool, request.uuid.toLowerCase());
    if (!row) throw proposalNotFound();
    if (request.team_id !== '' && request.team_id.toLowerCase() !== row.team_id) throw proposalNotFound();
    const userId = await reviewer(row.team_id, request.user_id);
    return { uuid: row.uuid, userId };
  }

  /**
   * Runs one review transition on the locked row. `change` returns the new row, or an error to throw
   * after the transaction commits (so an expiry found on the way is kept).
   */
  async function review(
    uuid: string,
    change: (client: PoolClient, row: repo.ProposalRow) => Promise<repo.ProposalRow | ServiceError>,
  ) {
    const outcome = await withTransaction(pool, async (client) => {
      const locked = await repo.findProposalForUpdate(client, uuid);
      if (!locked) throw proposalNotFound();
      return change(client, await settleExpiry(client, locked, announce));
    });
    if (outcome instanceof ServiceError) throw outcome;
    return answer(outcome);
  }

  /** A proposal for a member of its team (any role) and that member's role; anyone else: not_found. */
  async function memberView(request: { uuid: string; user_id: string }) {
    if (!isUuid(request.uuid) || !isUuid(request.user_id)) throw proposalNotFound();
    const row = await repo.findProposal(pool, request.uuid.toLowerCase());
    if (!row) throw proposalNotFound();
    const membership = await accounts
      .GetMembership({ team_id: row.team_id, user_id: request.user_id.toLowerCase() })
      .catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === 'not_found') throw proposalNotFound();
        throw error;
      });
    return { row, role: membership.role, userId: request.user_id.toLowerCase() };
  }

  /** With "no lint errors" required: the refusal of a change whose result has lint errors. */
  async function lintRefusal(
    teamId: string,
    change: Awaited<ReturnType<typeof proposedChange>>,
  ): Promise<ServiceError | null> {
    const config = await teamLintConfig(pool, teamId);
    if (!config.require_no_errors) return null;
    return lintGate(lintChange(change.current, change.after, config), config);
  }

  return {
    ...createConversationHandlers({ ...deps, answer, reviewed }),
    ...createLintHandlers({ pool, accounts }),

    async CreateProposal(request) {
      const caller = callerOf(request.principal);
      const title = boundedText('title', request.title, MAX_PROPOSAL_TITLE_CHARACTERS);
      const message = boundedText('message', request.message, MAX_PROPOSAL_MESSAGE_CHARACTERS);
      const checked = await checkProposedPatch(
        diagrams,
        caller,
        request.principal,
        request.diagram_uuid,
        request.schema_json,
      );
      const lint = lintChange(checked.before, checked.proposed, await teamLintConfig(pool, caller.teamId));
      const row = await withTransaction(pool, async (client) => {
        const created = await repo.insertProposal(client, {
          uuid: randomUUID(),
          diagram_uuid: checked.diagramUuid,
          team_id: caller.teamId,
          author_user_id: caller.userId,
          patch: checked.patch,
          base_version_uuid: checked.baseVersionUuid,
          counts: checked.counts,
          title,
          message,
          lint,
          lifetimeSeconds: deps.lifetimeSeconds,
        });
        // Revision 1 is the patch sent with the proposal; comments and later revisions refer to it.
        await conversation.insertRevision(client, {
          proposal_uuid: created.uuid,
          number: 1,
          patch: checked.patch,
          counts: checked.counts,
          message: null,
          author_user_id: caller.userId,
          base_version_uuid: checked.baseVersionUuid,
        });
        await announce(client, created, 'created', {}, caller.userId);
        return created;
      });
      return answer(row);
    },

    async GetProposal(request) {
      const caller = callerOf(request.principal);
      if (!isUuid(request.uuid)) throw proposalNotFound();
      const row = await repo.findProposal(pool, request.uuid.toLowerCase());
      if (!row || row.team_id !== caller.teamId) throw proposalNotFound();
      return answer(row);
    },

    async ApplyProposal(request) {
      const { uuid, userId } = await reviewed(request);
      return review(uuid, async (client, row) => {
        if (row.state !== 'pending') return conflict('applied', row.state);
        const patch = await repo.findPatch(client, uuid);
        // Under the row lock: a second apply waits here and then finds the proposal applied. A proposal
        // whose entities changed since its base is refused with the reason its migration gives, and stays
        // pending; so is one that no longer fits (diagrams refuses it, invalid_schema).
        let change: Awaited<ReturnType<typeof proposedChange>>;
        try {
          change = await proposedChange(diagrams, row, patch, userId);
        } catch (error) {
          if (error instanceof ServiceError && error.code === 'conflict')
            return new ServiceError(
              'conflict',
              `The proposal cannot be applied. ${error.message}`,
              error.extra,
            );
          throw error;
        }
        // With "no lint errors" required, the change as it would land now is linted (rebased, as above).
        const refused = await lintRefusal(row.team_id, change);
        if (refused) return refused;
        const applied = await diagrams.ApplyPatch({
          diagram_uuid: row.diagram_uuid,
          team_id: row.team_id,
          user_id: userId,
          patch_json: JSON.stringify(patch),
          source: 'proposal',
          source_id: uuid,
          // The version just checked: a change landing in between is caught by diagrams under its lock.
          base_version_uuid: change.currentVersionUuid,
        });
        const updated = await repo.transition(client, uuid, {
          kind: 'applied',
          versionUuid: applied.version_uuid,
          by: userId,
        });
        await announce(client, updated, 'applied', {}, userId);
        return updated;
      });
    },

    async DeclineProposal(request) {
      if (characters(request.reason) > MAX_DECLINE_REASON_CHARACTERS)
        throw invalidField('reason', `must be at most ${MAX_DECLINE_REASON_CHARACTERS} characters`);
      const reason = request.reason.trim() === '' ? null : request.reason;
      const { uuid, userId } = await reviewed(request);
      return review(uuid, async (client, row) => {
        if (row.state !== 'pending') return conflict('declined', row.state);
        const updated = await repo.transition(client, uuid, {
          kind: 'declined',
          reason,
          by: userId,
        });
        await announce(client, updated, 'declined', {}, userId);
        return updated;
      });
    },

    async ReopenProposal(request) {
      const { uuid, userId } = await reviewed(request);
      return review(uuid, async (client, row) => {
        if (row.state !== 'expired')
          return new ServiceError(
            'conflict',
            `only an expired proposal can be reopened; this one is ${row.state}`,
          );
        const updated = await repo.transition(client, uuid, {
          kind: 'reopened',
          lifetimeSeconds: deps.lifetimeSeconds,
        });
        await announce(client, updated, 'reopened', {}, userId);
        return updated;
      });
    },

    async MarkOpened(request) {
      const { uuid } = await reviewed(request);
      return review(uuid, async (client, row) => {
        if (row.opened_at !== null) return row;
        const updated = await repo.transition(client, uuid, { kind: 'opened' });
        await announce(client, updated, 'opened');
        return updated;
      });
    },

    async GetProposalForReview(request) {
      const { row, role } = await memberView(request);
      const patch = await repo.findPatch(pool, row.uuid);
      const revisions = await conversation.listRevisions(pool, row.uuid);
      return {
        proposal: answer(row),
        patch_json: JSON.stringify(patch),
        role,
        revisions: revisions.map((revision) => toRevision(revision, true)),
        anchors: anchorsOf(patch),
        lint: row.lint,
      };
    },

    // The latest revision's patch (proposals.patch) from the version that revision was made on.
    async GetProposedChange(request) {
      const { row, userId } = await memberView(request);
      const change = await proposedChange(diagrams, row, await repo.findPatch(pool, row.uuid), userId);
      return {
        current_json: JSON.stringify(change.current),
        proposed_json: JSON.stringify(change.after),
        current_version_uuid: change.currentVersionUuid,
      };
    },

    async ListProposalsForDiagram(request) {
      if (!isUuid(request.team_id)) throw invalidField('team_id', 'must be a UUID');
      if (!isUuid(request.diagram_uuid)) return { proposals: [] };
      const rows = await repo.listForDiagram(
        pool,
        request.team_id.toLowerCase(),
        request.diagram_uuid.toLowerCase(),
      );
      return { proposals: rows.map(answer) };
    },
  };
}
