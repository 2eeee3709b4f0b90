// Generates a merge patch of about `targetBytes` against a generated diagram, in two forms: the JSON text a
// client sends, and the typed `Patch` that validation turns it into (for code that runs without validation).
import type { DiagramDocument, DocumentTable } from '../model';
import type { Patch, PatchColumn, PatchRelationship, PatchTable } from '../patch-types';
import { SeededRandom } from '../generated/random';
import { COLUMN_TYPES, COMMENTS, type GeneratedType, ID_TYPE } from '../generated/vocabulary';

export interface GeneratedPatch {
  json: string;
  patch: Patch;
}

type RawEntry = Record<string, unknown>;

interface Builder {
  random: SeededRandom;
  raw: {
    strategy: 'merge';
    tables: RawEntry[];
    relationships: RawEntry[];
    groups: RawEntry[];
  };
  patch: Patch;
  bytes: number;
  touched: Set<string>;
}

/** Cycles through new tables, changes to existing tables and deletions until the size is reached. */
export function generatePatch(document: DiagramDocument, options: { targetBytes: number; seed?: number }) {
  const builder = emptyBuilder(options.seed ?? 2);
  const steps = [addTable, changeTable, changeTable, deleteParts];
  for (let round = 0; builder.bytes < options.targetBytes; round++)
    steps[round % steps.length]!(builder, document, round);
  const raw = { ...builder.raw, deletions: { columns: builder.patch.deletions.columns } };
  return { json: JSON.stringify(raw), patch: builder.patch } satisfies GeneratedPatch;
}

function emptyBuilder(seed: number): Builder {
  return {
    random: new SeededRandom(seed),
    raw: { strategy: 'merge', tables: [], relationships: [], groups: [{ name: 'Imported' }] },
    patch: {
      strategy: 'merge',
      tables: [],
      groups: [{ name: 'Imported' }],
      relationships: [],
      sticky_notes: [],
      deletions: { tables: [], columns: [], indexes: [], relationships: [], groups: [], sticky_notes: [] },
    },
    bytes: 0,
    touched: new Set(),
  };
}

function addTable(builder: Builder, document: DiagramDocument, round: number): void {
  const name = `imported_${round}`;
  const targets = [builder.random.pick(document.tables), builder.random.pick(document.tables)];
  const columns = [
    column('id', ID_TYPE, builder.random, {
      is_primary_key: true,
      is_auto_increment: true,
      is_unsigned: true,
    }),
  ];
  for (const [k, target] of targets.entries()) {
    // Unsigned like the ids they reference: MySQL refuses a foreign key whose signedness differs.
    columns.push(column(`${target.name}_ref_${k}`, ID_TYPE, builder.random, { is_unsigned: true }));
  }
  for (let c = columns.length; c < 20; c++)
    columns.push(column(`field_${c}`, builder.random.pick(COLUMN_TYPES), builder.random, {}));
  const table: PatchTable = {
    name,
    parent_name: 'Imported',
    columns: columns.map((c) => c.typed),
    indexes: [],
  };
  pushTable(builder, table, { name, parent_name: 'Imported', columns: columns.map((c) => c.raw) });
  targets.forEach((target, k) => {
    const relationship: PatchRelationship = {
      type: 'one-to-many',
      source_table: target.name,
      source_column: 'id',
      target_table: name,
      target_column: `${target.name}_ref_${k}`,
    };
    builder.patch.relationships.push(relationship);
    builder.raw.relationships.push({ ...relationship });
    builder.bytes += JSON.stringify(relationship).length;
  });
}

function changeTable(builder: Builder, document: DiagramDocument): void {
  const target = pickUntouched(builder, document);
  const renamed = target.columns[target.columns.length - 1]!;
  const retyped = target.columns[target.columns.length - 2]!;
  const columns = [
    column(`${renamed.name}_v2`, builder.random.pick(COLUMN_TYPES), builder.random, {}, renamed.name),
    column(retyped.name, builder.random.pick(COLUMN_TYPES), builder.random, { is_nullable: false }),
    ...[1, 2, 3].map((n) => column(`added_${n}`, builder.random.pick(COLUMN_TYPES), builder.random, {})),
  ];
  const index = { name: `idx_${target.name}_added_1`, type: 'index' as const, columns: ['added_1'] };
  const comment = builder.random.pick(COMMENTS);
  const table: PatchTable = {
    name: target.name,
    comment,
    columns: columns.map((c) => c.typed),
    indexes: [index],
  };
  pushTable(builder, table, {
    name: target.name,
    comment,
    columns: columns.map((c) => c.raw),
    indexes: [index],
  });
}

function deleteParts(builder: Builder, document: DiagramDocument): void {
  const target = pickUntouched(builder, document);
  const victim = target.columns[target.columns.length - 1]!;
  const entry = { table: target.name, columns: [victim.name] };
  builder.patch.deletions.columns.push(entry);
  builder.bytes += JSON.stringify(entry).length;
}

function pushTable(builder: Builder, table: PatchTable, raw: RawEntry): void {
  builder.patch.tables.push(table);
  builder.raw.tables.push(raw);
  builder.bytes += JSON.stringify(raw).length;
}

/** A table no earlier step changed or deleted from, so the patch never conflicts with itself. */
function pickUntouched(builder: Builder, document: DiagramDocument): DocumentTable {
  const start = builder.random.integer(document.tables.length);
  for (let offset = 0; offset < document.tables.length; offset++) {
    const table = document.tables[(start + offset) % document.tables.length]!;
    if (builder.touched.has(table.name)) continue;
    builder.touched.add(table.name);
    return table;
  }
  throw new Error('the diagram is too small for a patch of this size');
}

function column(
  name: string,
  type: GeneratedType,
  random: SeededRandom,
  flags: Partial<PatchColumn>,
  oldName?: string,
): { raw: RawEntry; typed: PatchColumn } {
  const extra: Partial<PatchColumn> = { ...flags };
  if (oldName !== undefined) extra.old_name = oldName;
  if (type.enumValues !== undefined) extra.enum_values = [...type.enumValues];
  if (random.chance(0.3)) extra.comment = random.pick(COMMENTS);
  const raw = { name, type: type.raw, ...extra };
  const data_type = { name: type.name, params: type.params === null ? null : structuredClone(type.params) };
  return { raw, typed: { name, type: type.raw, data_type, ...extra } };
}
