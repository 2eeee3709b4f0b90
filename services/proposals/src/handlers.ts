// The gRPC surface of proposals (dss.v1.Proposals). Calls that start from a REST client carry the
// caller's principal and see only the caller's team; review calls (web app, operator CLI) name the
// reviewer, who must be an owner or editor of the proposal's team (asked of accounts).
//
// Every transition writes the row and a `proposals.changed` event (outbox) in one transaction. A pending
// proposal past `expires_at` reads as expired at once; a review call that finds one stores the expiry
// (and announces it) before answering, so the event stream never skips it.
import { randomUUID } from 'node:crypto';
import {
  enqueueEvent,
  type Metrics,
  ServiceError,
  type ServiceClient,
  type ServiceHandlers,
  withTransaction,
  ensureWithinBytes,
  invalidField,
  isUuid,
} from '@dss/platform';
import {
  apply,
  type DiagramDocument,
  diff,
  type Driver,
  isEmptyDiff,
  MAX_DECLINE_REASON_CHARACTERS,
  MAX_PROBLEMS,
  MAX_PROPOSAL_MESSAGE_CHARACTERS,
  MAX_PROPOSAL_TITLE_CHARACTERS,
  MAX_SCHEMA_BYTES,
  normalize,
  proposalCounts,
  validate,
} from '@dss/schema';
import type { Pool, PoolClient } from 'pg';
import { createLintHandlers, lintChange, lintGate, teamLintConfig } from './lint';
import * as repo from './repository';
import { boundedText, type Caller, callerOf, canEdit, characters, proposalNotFound } from './requests';
import { effectiveState, toProposal } from './wire';

export const PROPOSALS_CHANGED_SUBJECT = 'proposals.changed';

export type ProposalEventKind = 'created' | 'applied' | 'declined' | 'reopened' | 'expired' | 'opened';

export interface ProposalsHandlerDeps {
  pool: Pool;
  appUrl: string;
  lifetimeSeconds: number;
  accounts: ServiceClient<'Accounts'>;
  diagrams: ServiceClient<'Diagrams'>;
  announce: Announce;
}

export type Announce = (client: PoolClient, row: repo.ProposalRow, kind: ProposalEventKind) => Promise<void>;

/**
 * The writer of `proposals.changed` events: ids and the state only, never patch text. Also counts
 * `dss_proposal_transitions_total{transition}` when given metrics (counted when written; a transaction
 * that then fails to commit, rare since the event is the last write of each, still counts).
 */
export function createAnnounce(metrics?: Metrics): Announce {
  const counter = metrics?.counter('proposal_transitions_total', 'Proposal transitions written, by kind', [
    'transition',
  ]);
  return async (client, row, kind) => {
    await enqueueEvent(client, repo.SCHEMA, PROPOSALS_CHANGED_SUBJECT, {
      proposal_uuid: row.uuid,
      diagram_uuid: row.diagram_uuid,
      team_id: row.team_id,
      transition: kind,
      state: effectiveState(row),
      at: row.updated_at.toISOString(),
    });
    counter?.inc({ transition: kind });
  };
}

/** Stores and announces the expiry of a locked row that is pending but past `expires_at`. */
async function settleExpiry(
  client: PoolClient,
  row: repo.ProposalRow,
  announce: Announce,
): Promise<repo.ProposalRow> {
  if (row.state !== 'pending' || effectiveState(row) !== 'expired') return row;
  const expired = await repo.transition(client, row.uuid, { kind: 'expired' });
  await announce(client, expired, 'expired');
  return expired;
}

const closedBecause: Record<repo.StoredState, string> = {
  pending: 'it is still pending',
  applied: 'it was already applied',
  declined: 'it was declined, and a declined proposal is closed',
  expired: 'it has expired; reopen it first',
};

function conflict(action: string, state: repo.StoredState): ServiceError {
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

  async function visibleDiagram(caller: Caller, principal: unknown, diagramUuid: string) {
    if (!isUuid(diagramUuid))
      throw new ServiceError('not_found', 'no such diagram, or the token cannot see it');
    const wire = principal as Parameters<typeof diagrams.GetDiagram>[0]['principal'];
    const diagram = await diagrams.GetDiagram({ principal: wire, uuid: diagramUuid });
    if (!canEdit(caller.role))
      throw new ServiceError('editor_required', 'the token’s user can view this diagram but not edit it');
    if (diagram.status !== 'ready')
      throw new ServiceError(
        'diagram_not_ready',
        diagram.status === 'importing'
          ? 'the diagram is still importing; poll GET /diagrams/{uuid} until its status is ready'
          : 'the diagram’s import failed, so it has no schema',
      );
    const full = await diagrams.GetFullDocument({ principal: wire, uuid: diagramUuid });
    const document = (JSON.parse(full.body) as { data: DiagramDocument }).data;
    return { uuid: diagram.uuid, driver: diagram.driver as Driver, document };
  }

  /** With "no lint errors" required: lints the patch against the diagram as it is now. */
  async function lintRefusal(
    row: repo.ProposalRow,
    patch: unknown,
    reviewerId: string,
  ): Promise<ServiceError | null> {
    const config = await teamLintConfig(pool, row.team_id);
    if (!config.require_no_errors) return null;
    const current = await diagrams.GetFullDocument({
      // The reviewer, already checked as an owner or editor of the team (as the web app builds it).
      principal: { team_id: row.team_id, user_id: reviewerId, role: 'editor' },
      uuid: row.diagram_uuid,
    });
    const before = (JSON.parse(current.body) as { data: DiagramDocument }).data;
    const result = validate(normalize(patch).patch, before, before.driver, 'propose');
    // A patch that no longer fits is refused by diagrams.ApplyPatch with the reason; let it say so.
    if (!result.ok) return null;
    return lintGate(lintChange(before, apply(before, result.patch).document, config), config);
  }

  return {
    ...createLintHandlers({ pool, accounts }),
    async CreateProposal(request) {
      const caller = callerOf(request.principal);
      const title = boundedText('title', request.title, MAX_PROPOSAL_TITLE_CHARACTERS);
      const message = boundedText('message', request.message, MAX_PROPOSAL_MESSAGE_CHARACTERS);
      ensureWithinBytes('schema', request.schema_json, MAX_SCHEMA_BYTES);
      const diagram = await visibleDiagram(caller, request.principal, request.diagram_uuid);

      const normalized = normalize(request.schema_json);
      const result = validate(normalized.patch, diagram.document, diagram.driver, 'propose');
      if (!result.ok)
        throw new ServiceError('invalid_schema', result.message, {
          errors: result.problems.slice(0, MAX_PROBLEMS),
        });
      const proposed = apply(diagram.document, result.patch).document;
      // A patch that only restates the diagram would open a review with nothing to decide.
      if (isEmptyDiff(diff(diagram.document, proposed)))
        throw new ServiceError('invalid_schema', 'The patch changes nothing in the diagram', {
          errors: [
            { path: '', message: 'the patch changes nothing in the diagram: every entry is already there' },
          ],
        });
      const limit = caller.maxTablesPerDiagram;
      if (limit !== null) {
        const before = diagram.document.tables.length;
        const requested = proposed.tables.length;
        if (requested > limit && requested > before)
          throw new ServiceError(
            'plan_limit',
            `the team's plan allows at most ${limit} tables per diagram; with this patch the diagram would have ${requested}`,
            { limit_type: 'tables', limit, requested },
          );
      }

      const lint = lintChange(diagram.document, proposed, await teamLintConfig(pool, caller.teamId));
      const row = await withTransaction(pool, async (client) => {
        const created = await repo.insertProposal(client, {
          uuid: randomUUID(),
          diagram_uuid: diagram.uuid,
          team_id: caller.teamId,
          author_user_id: caller.userId,
          // The normalised form (normalising again gives the same), re-validated when applied.
          patch: normalized.patch,
          counts: proposalCounts(result.patch),
          title,
          message,
          lint,
          lifetimeSeconds: deps.lifetimeSeconds,
        });
        await announce(client, created, 'created');
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
        const refused = await lintRefusal(row, patch, userId);
        if (refused) return refused;
        // Under the row lock: a second apply waits here and then finds the proposal applied. If the patch
        // no longer fits the diagram, diagrams refuses (invalid_schema) and the proposal stays pending.
        const applied = await diagrams.ApplyPatch({
          diagram_uuid: row.diagram_uuid,
          team_id: row.team_id,
          user_id: userId,
          patch_json: JSON.stringify(patch),
          source: 'proposal',
          source_id: uuid,
        });
        const updated = await repo.transition(client, uuid, {
          kind: 'applied',
          versionUuid: applied.version_uuid,
          by: userId,
        });
        await announce(client, updated, 'applied');
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
        await announce(client, updated, 'declined');
        return updated;
      });
    },

    async ReopenProposal(request) {
      const { uuid } = await reviewed(request);
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
        await announce(client, updated, 'reopened');
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
      if (!isUuid(request.uuid) || !isUuid(request.user_id)) throw proposalNotFound();
      const row = await repo.findProposal(pool, request.uuid.toLowerCase());
      if (!row) throw proposalNotFound();
      // Not a member of the proposal's team: the same answer as an unknown proposal.
      const membership = await accounts
        .GetMembership({ team_id: row.team_id, user_id: request.user_id.toLowerCase() })
        .catch((error: unknown) => {
          if (error instanceof ServiceError && error.code === 'not_found') throw proposalNotFound();
          throw error;
        });
      const patch = await repo.findPatch(pool, row.uuid);
      return {
        proposal: answer(row),
        patch_json: JSON.stringify(patch),
        role: membership.role,
        lint: row.lint,
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
