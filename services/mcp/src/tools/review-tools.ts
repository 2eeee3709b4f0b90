// Tools of the review conversation: waiting for a reviewer without polling (one long-poll per call), reading
// the comment threads, commenting, resolving a thread and sending a revised patch. Writes need a token with
// write access; they count against the write limit like a proposal.
import type { Comment, ProposalStatus } from '@dss/client';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { patchSchema } from '../patch-schema';
import { jsonResult } from '../tool-results';
import { instrumented, type ToolContext } from './context';
import {
  commentOutput,
  reviewThreadsOutput,
  revisionOutput,
  revisionsOutput,
  waitForReviewOutput,
} from './outputs';

const proposalUuid = z.string().min(1).describe("The proposal's uuid (from propose_diagram_changes).");
const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** What to do after a wait, from what the reviewer did. */
function nextStep(status: ProposalStatus | null): string {
  if (status === null) return 'Nothing new yet: call wait_for_review again with the returned etag.';
  if (status.state === 'applied') return 'Applied: the diagram now holds the latest revision.';
  if (status.state === 'declined')
    return 'Declined: read decline_reason and list_review_threads before proposing anew.';
  if (status.state === 'expired')
    return 'Expired unreviewed: a person can reopen it from the diagram’s history.';
  if (status.open_thread_count > 0 || status.review)
    return 'Read list_review_threads, answer with add_comment, and send revise_proposal when the reviewer asked for changes.';
  return 'Still pending: call wait_for_review again with the returned etag.';
}

/** Comments grouped into threads (first comment and replies, in the order written). */
function threadsOf(comments: Comment[]) {
  const threads = new Map<string, Comment[]>();
  for (const comment of comments) {
    const key = comment.reply_to ?? comment.id;
    threads.set(key, [...(threads.get(key) ?? []), comment]);
  }
  return [...threads.values()].map((thread) => {
    const first = thread[0]!;
    return {
      id: first.id,
      kind: first.kind,
      anchor: first.anchor ?? null,
      revision: first.revision,
      resolved: first.resolved_at !== null,
      comments: thread.map((comment) => ({
        id: comment.id,
        author: comment.author.kind,
        body: comment.body,
        created_at: comment.created_at,
      })),
    };
  });
}

export function registerReviewTools(server: McpServer, context: ToolContext): void {
  const { client } = context;

  server.registerTool(
    'wait_for_review',
    {
      title: 'Wait for the reviewer',
      description:
        'Waits (without polling) until the reviewer acts on a proposal — applies, declines, comments or requests ' +
        'changes — or until wait_seconds pass, and returns the proposal status. Pass the etag of the previous ' +
        'call so nothing in between is missed; without it the wait starts now. Answers at once when the proposal ' +
        'is no longer pending or changed since that etag. One call counts once against the read limit.',
      inputSchema: {
        proposal_uuid: proposalUuid,
        wait_seconds: z
          .number()
          .int()
          .min(1)
          .max(60)
          .optional()
          .describe('How long to wait, 1 to 60 (default 30).'),
        etag: z.string().optional().describe('The etag returned by the previous wait_for_review call.'),
      },
      outputSchema: waitForReviewOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    instrumented('wait_for_review', context, async ({ proposal_uuid, wait_seconds, etag }) => {
      const answer = await client.waitForReview(proposal_uuid, {
        waitSeconds: wait_seconds ?? 30,
        ...(etag ? { etag } : {}),
      });
      const status = answer.notModified ? null : answer.data;
      return jsonResult({
        changed: !answer.notModified,
        etag: answer.etag,
        status,
        next_step: nextStep(status),
      });
    }),
  );

  server.registerTool(
    'list_review_threads',
    {
      title: "A proposal's review threads",
      description:
        'The review conversation of a proposal as threads, oldest first: each has its first comment id, kind ' +
        '(comment, or changes_requested for a reviewer asking for changes), the table/column it is anchored to ' +
        '(null: the whole proposal), the revision it was started on, whether it is resolved, and its comments ' +
        '(author person = a reviewer, token = an API client such as you). Bodies are plain text.',
      inputSchema: { proposal_uuid: proposalUuid },
      outputSchema: reviewThreadsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    instrumented('list_review_threads', context, async ({ proposal_uuid }) => {
      const [comments, status] = await Promise.all([
        client.listComments(proposal_uuid),
        client.getProposal(proposal_uuid),
      ]);
      return jsonResult({
        threads: threadsOf(comments),
        open_thread_count: status.open_thread_count,
        latest_revision: status.latest_revision,
      });
    }),
  );

  server.registerTool(
    'add_comment',
    {
      title: 'Comment on a proposal',
      description:
        'Adds a plain-text comment (at most 4,000 characters) to a proposal: a new thread on the whole proposal, ' +
        'a new thread anchored to a table or column the latest revision changes, or (reply_to) an answer in a ' +
        'thread. Needs a token with write access.',
      inputSchema: {
        proposal_uuid: proposalUuid,
        body: z.string().min(1).max(4000).describe('Plain text, at most 4,000 characters.'),
        anchor: z
          .object({
            table: z.string().min(1).describe('A table the proposal changes.'),
            column: z.string().min(1).optional().describe('A column of that table the proposal changes.'),
          })
          .strict()
          .optional()
          .describe('Only when starting a thread about one table or column.'),
        reply_to: z.string().min(1).optional().describe('A comment id of the thread to answer.'),
      },
      outputSchema: commentOutput,
      annotations: WRITE,
    },
    instrumented('add_comment', context, async ({ proposal_uuid, body, anchor, reply_to }) =>
      jsonResult({
        ...(await client.addComment(proposal_uuid, {
          body,
          ...(anchor ? { anchor } : {}),
          ...(reply_to ? { reply_to } : {}),
        })),
      }),
    ),
  );

  server.registerTool(
    'resolve_thread',
    {
      title: 'Resolve a review thread',
      description:
        'Marks the thread of a comment resolved (for example once a revision addressed it). Owners and editors ' +
        'resolve any thread, others only their own. Needs a token with write access.',
      inputSchema: {
        proposal_uuid: proposalUuid,
        comment_id: z.string().min(1).describe('Any comment id of the thread.'),
      },
      outputSchema: commentOutput,
      annotations: { ...WRITE, idempotentHint: true },
    },
    instrumented('resolve_thread', context, async ({ proposal_uuid, comment_id }) =>
      jsonResult({ ...(await client.resolveThread(proposal_uuid, comment_id)) }),
    ),
  );

  server.registerTool(
    'revise_proposal',
    {
      title: 'Send a revised patch',
      description:
        'Replaces a pending proposal’s patch with a revised one (for example after the reviewer requested ' +
        'changes), checked exactly like propose_diagram_changes; the proposal keeps its uuid and review link and ' +
        'applying it applies the latest revision. The whole patch is sent again, not a difference to the last ' +
        'revision. At most 20 revisions. Needs a token with write access whose user may edit the diagram.',
      inputSchema: {
        proposal_uuid: proposalUuid,
        patch: patchSchema,
        message: z
          .string()
          .max(500)
          .optional()
          .describe('What changed in this revision, for the reviewer (plain text).'),
      },
      outputSchema: revisionOutput,
      annotations: WRITE,
    },
    instrumented('revise_proposal', context, async ({ proposal_uuid, patch, message }) => {
      const revision = await client.reviseProposal(proposal_uuid, {
        schema: patch as never,
        ...(message ? { message } : {}),
      });
      return jsonResult({
        number: revision.number,
        message: revision.message,
        counts: revision.counts,
        created_at: revision.created_at,
        next_step: 'Tell the reviewer it is revised, answer the threads it addresses, then wait_for_review.',
      });
    }),
  );

  server.registerTool(
    'list_revisions',
    {
      title: "A proposal's revisions",
      description:
        'The revisions of a proposal, oldest first (1 is the patch it was proposed with), with counts only.',
      inputSchema: { proposal_uuid: proposalUuid },
      outputSchema: revisionsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    instrumented('list_revisions', context, async ({ proposal_uuid }) => ({
      ...jsonResult({
        revisions: (await client.listRevisions(proposal_uuid)).map(
          ({ number, message, counts, created_at }) => ({
            number,
            message,
            counts,
            created_at,
          }),
        ),
      }),
    })),
  );
}
