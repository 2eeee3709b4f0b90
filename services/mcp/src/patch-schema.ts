// The schema patch as a tool input (zod, as the MCP SDK expects; it becomes the JSON Schema the model sees).
// It follows the patch contract (GET /schema-patch-contract) field by field, with descriptions written for a
// model. Objects are closed (no `additionalProperties` of their own): strict function-calling providers
// refuse open objects, and a model is best told exactly which keys exist; a key outside them is dropped
// here rather than sent. Apart from that nothing is stricter than the API: its tolerance rules coerce
// "true"/"false" and number strings, and a missing column type is its invalid_schema, so those reach it
// rather than failing here with the SDK's own validation text.
import { z } from 'zod';

export const driverSchema = z
  .enum(['mysql', 'pgsql', 'sqlsrv'])
  .describe(
    'Database driver (SQL dialect): mysql (MySQL/MariaDB), pgsql (PostgreSQL) or sqlsrv (SQL Server).',
  );

/** A boolean, or "true"/"false" as a string (the API coerces it). */
const flag = z.union([z.boolean(), z.string().regex(/^\s*(true|false)\s*$/i)]);
/** A whole number from 0, or one written as a string ("12"; the API coerces it). */
const count = z.union([z.number().int().min(0), z.string().regex(/^\s*\+?\d+\s*$/)]);

const columnSchema = z.object({
  name: z.string().describe('Column name (the new name when renaming).'),
  old_name: z.string().optional().describe('Current name; set only when renaming the column.'),
  type: z
    .string()
    .optional()
    .describe(
      "Required on every listed column. Data type of the diagram's driver, with parameters when needed: varchar(255), decimal(10,2), bigint, text[] (pgsql). See get_data_types.",
    ),
  length: count.optional().describe('Type length; must agree with a length written in `type`.'),
  is_primary_key: flag.optional(),
  is_auto_increment: flag.optional(),
  is_nullable: flag.optional(),
  is_unique_key: flag.optional().describe('Single-column unique key.'),
  is_index: flag.optional().describe('Single-column index.'),
  is_unsigned: flag.optional().describe('Unsigned numeric (MySQL only).'),
  default: z.string().optional().describe('Default value as SQL text; numbers as strings ("0").'),
  enum_values: z
    .array(z.string())
    .optional()
    .describe('Allowed values of enum and set columns (put them here, not in a sticky note).'),
  comment: z.string().optional(),
});

const indexSchema = z.object({
  name: z.string(),
  type: z.enum(['primary', 'unique', 'index']),
  columns: z.array(z.string()).min(1).describe('Column names in index order, as they are after the patch.'),
});

const tableSchema = z.object({
  name: z.string().describe('Table name (the new name when renaming).'),
  old_name: z
    .string()
    .optional()
    .describe('Current name; set only when renaming the table (strategy merge).'),
  comment: z.string().optional(),
  parent_name: z
    .string()
    .optional()
    .describe('Name of a group (existing or in this patch) to put the table in.'),
  parent_uuid: z.string().optional().describe('UUID of an existing group to put the table in.'),
  columns: z
    .array(columnSchema)
    .optional()
    .describe('On an existing table list only the columns that are added or change.'),
  indexes: z.array(indexSchema).optional(),
  left: count
    .optional()
    .describe('Canvas x in pixels; omit to have the layout computed (refused on create).'),
  top: count.optional().describe('Canvas y in pixels; omit to have the layout computed (refused on create).'),
});

const endpoints = {
  source_table: z.string(),
  source_column: z.string(),
  target_table: z.string(),
  target_column: z.string(),
};

const relationshipSchema = z.object({
  type: z
    .enum(['one-to-one', 'one-to-many', 'many-to-one'])
    .describe('many-to-one: the source holds the foreign key; one-to-many: the source is the "one" side.'),
  ...endpoints,
});

const columnsByTable = z.union([
  z.array(z.object({ table: z.string().describe('Table name or UUID.'), columns: z.array(z.string()) })),
  z.record(z.string(), z.array(z.string())),
]);
const indexesByTable = z.union([
  z.array(z.object({ table: z.string().describe('Table name or UUID.'), indexes: z.array(z.string()) })),
  z.record(z.string(), z.array(z.string())),
]);

const deletionsSchema = z
  .object({
    tables: z.array(z.string()).optional().describe('Table names to delete.'),
    columns: columnsByTable.optional().describe('[{table, columns: [names]}] or {"<table>": ["<column>"]}.'),
    indexes: indexesByTable.optional().describe('[{table, indexes: [names]}] or {"<table>": ["<index>"]}.'),
    relationships: z
      .array(z.object(endpoints))
      .optional()
      .describe('Relationships named by their four endpoints.'),
    groups: z
      .array(z.object({ name: z.string(), delete_children: flag.optional() }))
      .optional()
      .describe('delete_children false (default) keeps the members, ungrouped.'),
    sticky_notes: z.array(z.string()).optional().describe('Sticky note UUIDs.'),
  })
  .describe('What to remove, named as before the patch; needs strategy merge.');

export const patchSchema = z
  .object({
    strategy: z
      .enum(['merge', 'additive'])
      .describe('merge: add, update and delete (required with deletions or renames). additive: only add.'),
    tables: z.array(tableSchema).optional(),
    groups: z
      .array(z.object({ name: z.string() }))
      .optional()
      .describe('Groups to add; tables join with parent_name.'),
    relationships: z.array(relationshipSchema).optional(),
    sticky_notes: z
      .array(
        z.object({
          content: z.string(),
          parent_name: z.string().optional(),
          parent_uuid: z.string().optional(),
        }),
      )
      .optional(),
    deletions: deletionsSchema.optional(),
  })
  .describe(
    'A schema patch: only what changes, entities referenced by name. The full contract is returned by get_patch_contract.',
  );

export type PatchInput = z.infer<typeof patchSchema>;
