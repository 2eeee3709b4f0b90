// The outputSchema of each tool: what its structuredContent holds (the SDK checks every successful result
// against it). The text content carries the same, for clients that read only text. Failures are isError
// results with text only, as the protocol allows.
import { z } from 'zod';

const timestamp = z.string().describe('ISO 8601 timestamp.');
const diagramStatus = z.enum(['ready', 'importing', 'failed']);
const importError = z.object({ code: z.string(), message: z.string() });
const counts = z
  .record(z.string(), z.unknown())
  .describe('How many entries each section of the patch names.');

export const listDiagramsOutput = {
  diagrams: z.array(
    z.object({
      uuid: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      status: diagramStatus,
      table_count: z.number().int(),
      updated_at: timestamp,
      url: z.string(),
      error: importError.optional(),
    }),
  ),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
};

export const schemaOutput = {
  markdown: z.string().describe("The diagram's schema as compact Markdown."),
};

export const dataTypesOutput = {
  driver: z.string(),
  data_types: z.array(z.record(z.string(), z.unknown())).describe('The catalog entries of the driver.'),
};

export const patchContractOutput = {
  contract: z.record(z.string(), z.unknown()).describe('The patch contract document.'),
};

export const proposalStatusOutput = {
  uuid: z.string(),
  state: z.enum(['pending', 'applied', 'declined', 'expired']),
  opened_at: timestamp.nullable(),
  applied_at: timestamp.nullable(),
  applied_version_uuid: z.string().nullable(),
  declined_at: timestamp.nullable(),
  decline_reason: z.string().nullable(),
  expires_at: timestamp,
  base_version_uuid: z
    .string()
    .nullable()
    .describe('The diagram version the latest revision was made on; its change is rebased from there.'),
  comment_count: z
    .number()
    .int()
    .describe('Comments on the proposal, replies and requests for changes included.'),
  open_thread_count: z.number().int().describe('Comment threads not yet resolved.'),
  latest_revision: z.number().int().describe('The latest revision (1 until revise_proposal is used).'),
  review: z
    .object({ requested_changes_at: timestamp, by: z.string().nullable() })
    .nullable()
    .describe('The last request for changes; null until a reviewer asks for changes.'),
  lint: z.object({ errors: z.number().int(), warnings: z.number().int() }),
};

const anchor = z
  .object({ table: z.string(), column: z.string().optional() })
  .describe('The table (and column) of the changes the thread is about.');

export const commentOutput = {
  id: z.string().describe('Use as reply_to to answer, or with resolve_thread.'),
  revision: z.number().int().describe('The revision that was the latest when it was written.'),
  anchor: anchor.nullable(),
  reply_to: z.string().nullable().describe("The thread's first comment; null for that comment itself."),
  kind: z.enum(['comment', 'changes_requested']),
  body: z.string(),
  author: z.object({ kind: z.enum(['person', 'token']), user_uuid: z.string() }),
  created_at: timestamp,
  resolved_at: timestamp.nullable(),
  resolved_by: z.string().nullable(),
};

export const reviewThreadsOutput = {
  threads: z.array(
    z.object({
      id: z.string().describe("The thread's first comment; pass it as reply_to or to resolve_thread."),
      kind: z.enum(['comment', 'changes_requested']),
      anchor: anchor.nullable(),
      revision: z.number().int().describe('The revision the thread was started on.'),
      resolved: z.boolean(),
      comments: z.array(
        z.object({
          id: z.string(),
          author: z
            .enum(['person', 'token'])
            .describe('person: a reviewer in the web app; token: an API client.'),
          body: z.string().describe('Plain text.'),
          created_at: timestamp,
        }),
      ),
    }),
  ),
  open_thread_count: z.number().int(),
  latest_revision: z.number().int(),
};

const revision = z.object({
  number: z.number().int(),
  message: z.string().nullable(),
  counts,
  created_at: timestamp,
});

export const revisionOutput = {
  number: z.number().int(),
  message: z.string().nullable(),
  counts,
  created_at: timestamp,
  next_step: z.string(),
};

export const revisionsOutput = { revisions: z.array(revision) };

export const waitForReviewOutput = {
  changed: z.boolean().describe('false when the wait ended with nothing new since `etag`.'),
  etag: z.string().describe('Pass to the next wait_for_review so nothing in between is missed.'),
  status: z.object(proposalStatusOutput).nullable().describe('The proposal now; null when nothing changed.'),
  next_step: z.string(),
};

export const visualizeOutput = {
  url: z.string().describe('Opens the drawing in the web app; nothing is stored.'),
  notes: z.array(z.string()).describe('What was tolerated or dropped while reading the input.'),
};

export const createDiagramOutput = {
  uuid: z.string(),
  name: z.string(),
  status: diagramStatus,
  url: z.string(),
  table_count: z.number().int().optional(),
  counts: counts.optional(),
  warnings: z.array(z.string()).optional(),
  replayed: z.boolean().optional(),
  next_step: z.string().optional(),
};

export const diagramSummaryOutput = {
  uuid: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: diagramStatus,
  table_count: z.number().int(),
  url: z.string(),
  counts: counts.optional(),
};

export const proposeOutput = {
  proposal_uuid: z.string(),
  status: z.string(),
  review_url: z.string(),
  expires_at: timestamp,
  counts,
  next_step: z.string(),
};

export const listVersionsOutput = {
  versions: z.array(
    z.object({
      number: z.number().int(),
      created_at: timestamp,
      source: z.string(),
      proposal_uuid: z.string().nullable(),
      author: z.string().nullable(),
      label: z
        .string()
        .nullable()
        .optional()
        .describe('The version\'s label ("v2 release"); null when none.'),
      restored_version: z
        .number()
        .int()
        .nullable()
        .optional()
        .describe('With source restore, the number of the version restored.'),
    }),
  ),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
};

export const exportDiagramOutput = {
  format: z.enum(['sql', 'dbml', 'mermaid', 'svg', 'png']),
  version: z.number().int().nullable().describe('The exported version; null for the current one.'),
  text: z.string().nullable().describe('The export (null for png, which comes as image content).'),
};

export const proposalMigrationOutput = {
  sql: z.string().describe('The whole migration script.'),
  statements: z.array(z.string()).describe('The statements in order.'),
  warnings: z
    .array(
      z.object({
        code: z.string(),
        message: z.string(),
        statement: z.number().int().describe('Index in statements.'),
      }),
    )
    .describe('Statements that may lose data or fail on existing rows.'),
};

export const diffVersionsOutput = {
  from: z.number().int(),
  to: z.number().int(),
  markdown: z.string().describe('The changes as compact Markdown.'),
};
