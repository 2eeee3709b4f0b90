import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDiagram } from '../src/generated/generate-diagram';
import { renderMarkdown } from '../src/markdown';
import type { DiagramDocument } from '../src/model';
import { toSchema } from '../src/project';
import { column, documentOf, group, relationship, shopDocument, table } from './apply-fixtures';

const GOLDEN = join(__dirname, 'golden');

/** Compares with the golden file; `UPDATE_GOLDEN=1` rewrites it instead. */
function expectGolden(name: string, text: string): void {
  const path = join(GOLDEN, name);
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(path, text);
  expect(text).toBe(readFileSync(path, 'utf8'));
}

function catalogDocument(): DiagramDocument {
  return documentOf({
    driver: 'pgsql',
    tables: [
      table(
        'products',
        [
          column('id', { driver_data_type_name: 'bigint', is_primary_key: true, is_auto_increment: true }),
          column('price', {
            driver_data_type_name: 'numeric',
            driver_data_type_params: { precision: 10, scale: 2 },
            default: '0',
          }),
          column('tags', {
            driver_data_type_name: 'text',
            driver_data_type_params: { array: true },
            is_nullable: true,
          }),
          column('state', {
            driver_data_type_name: 'enum',
            driver_data_type_params: { values: ['draft', "it's live"] },
            comment: 'Workflow state',
          }),
          column('sku', {
            driver_data_type_name: 'varchar',
            driver_data_type_params: { length: 64 },
            is_unique_key: true,
            is_index: true,
          }),
        ],
        {
          comment: 'Things we sell',
          indexes: [{ uuid: 'i', name: 'products_sku', type: 'unique', columns: ['sku'] }],
        },
      ),
      table('categories', [
        column('id', { is_primary_key: true, is_unsigned: true }),
        column('parent_id', { is_nullable: true }),
      ]),
    ],
    relationships: [relationship('categories.parent_id', 'categories.id', { on_delete: 'set null' })],
    groups: [group('catalog')],
  });
}

const jsonBytes = (document: DiagramDocument) =>
  Buffer.byteLength(JSON.stringify({ data: toSchema(document) }));

describe('renderMarkdown', () => {
  describe('detailed level', () => {
    it('carries types with parameters, keys, nullability, defaults, comments, indexes and relationships', () => {
      const text = renderMarkdown(catalogDocument(), 'detailed');
      expect(text).toContain('- price: numeric(10,2), not null, default 0');
      expect(text).toContain('- tags: text\\[\\]');
      expect(text).toContain("- state: enum('draft','it''s live'), not null, comment: Workflow state");
      expect(text).toContain('- id: bigint, PK, auto-increment, not null');
      expect(text).toContain('- id: int unsigned, PK, not null');
      expect(text).toContain('- products_sku: unique (sku)');
      expect(text).toContain('- categories.parent_id -> categories.id (many-to-one, on delete set null)');
      expect(text).toContain('Comment: Things we sell');
    });

    it('is the default level', () => {
      expect(renderMarkdown(catalogDocument())).toBe(renderMarkdown(catalogDocument(), 'detailed'));
    });

    it('matches the golden files', () => {
      expectGolden('catalog.detailed.md', renderMarkdown(catalogDocument(), 'detailed'));
      expectGolden('shop.detailed.md', renderMarkdown(shopDocument(), 'detailed'));
      expectGolden('empty.detailed.md', renderMarkdown(documentOf(), 'detailed'));
    });
  });

  describe('simple level', () => {
    it('carries table and column names only', () => {
      expect(renderMarkdown(shopDocument(), 'simple')).toBe(
        '# Schema (mysql, 2 tables)\n\n- orders: id, user_id\n- users: id, email\n',
      );
    });

    it('matches the golden files', () => {
      expectGolden('catalog.simple.md', renderMarkdown(catalogDocument(), 'simple'));
      expectGolden('shop.simple.md', renderMarkdown(shopDocument(), 'simple'));
    });
  });

  describe('escaping', () => {
    const hostile = () =>
      documentOf({
        tables: [
          table('a|b`c', [column('x\ny', { comment: 'line one\nline two | `code` *bold* [link](u) <b>' })], {
            comment: '## not a heading\r\n- not an item',
          }),
        ],
      });

    it('keeps every value on its own line', () => {
      const lines = renderMarkdown(hostile()).split('\n');
      expect(lines.filter((line) => line.startsWith('## '))).toEqual(['## a\\|b\\`c']);
      expect(lines).toContain('Comment: \\#\\# not a heading\\n- not an item');
      expect(lines).toContain(
        '- x\\ny: int, not null, comment: line one\\nline two \\| \\`code\\` \\*bold\\* \\[link\\](u) \\<b\\>',
      );
    });

    it('escapes underscores only at word boundaries', () => {
      const text = renderMarkdown(
        documentOf({ tables: [table('_hidden_', [column('created_at')])] }),
        'simple',
      );
      expect(text).toContain('- \\_hidden\\_: created_at');
    });

    it('escapes the separators of the rendering inside names', () => {
      const text = renderMarkdown(
        documentOf({ tables: [table('a.b', [column('c,d'), column('e:f')])] }),
        'simple',
      );
      expect(text).toContain('- a\\.b: c\\,d, e\\:f');
    });
  });

  describe('size', () => {
    it('is at most a third of the JSON schema response for a realistic diagram', () => {
      const document = generateDiagram({ tables: 200, columnsPerTable: 20, seed: 9 });
      expect(Buffer.byteLength(renderMarkdown(document, 'detailed')) * 3).toBeLessThanOrEqual(
        jsonBytes(document),
      );
      expect(Buffer.byteLength(renderMarkdown(document, 'simple')) * 3).toBeLessThanOrEqual(
        jsonBytes(document),
      );
    });

    it('is at most a third of the JSON schema response for a small diagram', () => {
      for (const document of [shopDocument(), catalogDocument()]) {
        expect(Buffer.byteLength(renderMarkdown(document, 'detailed')) * 3).toBeLessThanOrEqual(
          jsonBytes(document),
        );
      }
    });
  });

  it('is deterministic and independent of the order of tables and relationships', () => {
    const document = catalogDocument();
    const reordered = { ...document, tables: [...document.tables].reverse() };
    expect(renderMarkdown(reordered)).toBe(renderMarkdown(document));
  });
});
