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
    .describe('The diagram version the proposal was made on; its change is rebased from there.'),
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
