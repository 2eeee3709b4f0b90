// Properties over generated documents and typed patches (fast-check).
import fc from 'fast-check';
import { apply } from '../src/apply';
import { diff, isEmptyDiff } from '../src/diff';
import { renderMarkdown } from '../src/markdown';
import type { DiagramDocument } from '../src/model';
import type { Patch, PatchColumn, PatchTable } from '../src/patch-types';
import {
  column,
  documentOf,
  patchColumn,
  patchOf,
  relationship,
  sequentialUuids,
  table,
} from './apply-fixtures';

const names = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'user', 'order', 'tag', 'x y', 'é');

const documents: fc.Arbitrary<DiagramDocument> = fc
  .uniqueArray(
    fc.record({
      name: names,
      columns: fc.uniqueArray(names, { minLength: 1, maxLength: 4 }),
      comment: fc.option(fc.string()),
    }),
    {
      selector: (t) => t.name,
      maxLength: 5,
    },
  )
  .map((specs) => {
    const tables = specs.map((spec, n) =>
      table(
        spec.name,
        spec.columns.map((name) => column(name, { comment: spec.comment })),
        { left: n * 400, comment: spec.comment },
      ),
    );
    const relationships = tables
      .slice(1)
      .map((t) =>
        relationship(`${t.name}.${t.columns[0]!.name}`, `${tables[0]!.name}.${tables[0]!.columns[0]!.name}`),
      );
    return documentOf({ tables, relationships });
  });

const patchColumns: fc.Arbitrary<PatchColumn[]> = fc
  .uniqueArray(fc.record({ name: names, nullable: fc.option(fc.boolean(), { nil: undefined }) }), {
    selector: (c) => c.name,
    maxLength: 3,
  })
  .map((specs) =>
    specs.map((s) =>
      patchColumn(s.name, 'varchar(20)', s.nullable === undefined ? {} : { is_nullable: s.nullable }),
    ),
  );

const patchTables: fc.Arbitrary<PatchTable[]> = fc.uniqueArray(
  fc.record({ name: names, columns: patchColumns, comment: fc.option(fc.string(), { nil: undefined }) }).map(
    ({ name, columns, comment }): PatchTable => ({
      name,
      columns,
      indexes: [],
      ...(comment === undefined ? {} : { comment }),
    }),
  ),
  { selector: (t) => t.name, maxLength: 4 },
);

const additivePatches: fc.Arbitrary<Patch> = patchTables.map((tables) =>
  patchOf({ strategy: 'additive', tables }),
);

describe('apply (properties)', () => {
  it('an additive patch never changes or removes an existing entity', () => {
    fc.assert(
      fc.property(documents, additivePatches, (document, patch) => {
        const result = apply(document, patch, { newUuid: sequentialUuids() }).diff;
        expect([
          result.tables.changed,
          result.tables.removed,
          result.columns.changed,
          result.columns.removed,
        ]).toEqual([[], [], [], []]);
        expect([result.relationships.changed, result.relationships.removed]).toEqual([[], []]);
        expect(result.indexes.changed).toEqual([]);
      }),
    );
  });

  it('apply then diff reports exactly the tables and columns a merge patch adds, changes and deletes', () => {
    fc.assert(
      fc.property(
        documents,
        patchTables,
        fc.uniqueArray(names, { maxLength: 2 }),
        (document, tables, doomed) => {
          const existing = new Set(document.tables.map((t) => t.name));
          const deleted = doomed.filter((name) => existing.has(name) && !tables.some((t) => t.name === name));
          const patch = patchOf({ tables, deletions: { tables: deleted } });
          const result = apply(document, patch, { newUuid: sequentialUuids() }).diff;
          const addedTables = tables.filter((t) => !existing.has(t.name)).map((t) => t.name);
          expect(result.tables.added.map((t) => t.name).sort()).toEqual(addedTables.sort());
          expect(result.tables.removed.map((t) => t.name).sort()).toEqual([...deleted].sort());
          const expectedNewColumns = tables
            .filter((t) => existing.has(t.name))
            .flatMap((t) => {
              const before = document.tables.find((d) => d.name === t.name)!;
              return t.columns
                .filter((c) => !before.columns.some((b) => b.name === c.name))
                .map((c) => `${t.name}.${c.name}`);
            });
          expect(result.columns.added.map((c) => `${c.table}.${c.record.name}`).sort()).toEqual(
            expectedNewColumns.sort(),
          );
          for (const change of result.columns.changed) {
            const entry = tables
              .find((t) => t.name === change.table)!
              .columns.find((c) => c.name === change.name);
            expect(entry).toBeDefined();
          }
          const commented = tables.filter((t) => existing.has(t.name) && t.comment !== undefined);
          const expectedComments = commented.filter(
            (t) => document.tables.find((d) => d.name === t.name)!.comment !== t.comment,
          );
          const commentChanges = result.tables.changed.filter((c) =>
            c.changes.some((f) => f.field === 'comment'),
          );
          expect(commentChanges.map((c) => c.name).sort()).toEqual(
            expectedComments.map((t) => t.name).sort(),
          );
        },
      ),
    );
  });

  it('diff of a document with itself is empty', () => {
    fc.assert(fc.property(documents, (document) => isEmptyDiff(diff(document, structuredClone(document)))));
  });

  it('Markdown is deterministic and does not depend on table order', () => {
    fc.assert(
      fc.property(documents, fc.constantFrom('detailed' as const, 'simple' as const), (document, level) => {
        const reversed = { ...document, tables: [...document.tables].reverse() };
        expect(renderMarkdown(reversed, level)).toBe(renderMarkdown(document, level));
      }),
    );
  });
});
