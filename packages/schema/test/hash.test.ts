import { canonicalJson, documentHash, schemaHash } from '../src/hash';
import { group, note, shopDocument } from './apply-fixtures';

function withFirstTable(change: Record<string, unknown>) {
  const document = shopDocument();
  return { ...document, tables: [{ ...document.tables[0]!, ...change }, ...document.tables.slice(1)] };
}

describe('content hashes', () => {
  describe('canonicalJson', () => {
    it('does not depend on the order of object keys', () => {
      expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }] })).toBe(
        canonicalJson({ a: [{ c: 'x', d: null }], b: 1 }),
      );
    });
  });

  describe('schemaHash', () => {
    it('stays the same when a table is moved, resized or recolored', () => {
      const moved = withFirstTable({ left: 900, top: 40, width: 321, color: '#ff0000' });
      expect(schemaHash(moved)).toBe(schemaHash(shopDocument()));
    });

    it('ignores groups and sticky notes', () => {
      const decorated = { ...shopDocument(), groups: [group('g')], sticky_notes: [note('n', 'hi')] };
      expect(schemaHash(decorated)).toBe(schemaHash(shopDocument()));
    });

    it('does not depend on table order or key order', () => {
      const document = shopDocument();
      const reordered = {
        ...document,
        tables: [...document.tables].reverse().map((t) => Object.fromEntries(Object.entries(t).reverse())),
      };
      expect(schemaHash(reordered as typeof document)).toBe(schemaHash(document));
    });

    it('changes when a comment changes', () => {
      expect(schemaHash(withFirstTable({ comment: 'People' }))).not.toBe(schemaHash(shopDocument()));
    });
  });

  describe('documentHash', () => {
    it('changes when a table is moved or recolored', () => {
      expect(documentHash(withFirstTable({ left: 900 }))).not.toBe(documentHash(shopDocument()));
      expect(documentHash(withFirstTable({ color: '#000' }))).not.toBe(documentHash(shopDocument()));
    });

    it('changes when a comment changes', () => {
      expect(documentHash(withFirstTable({ comment: 'People' }))).not.toBe(documentHash(shopDocument()));
    });

    it('does not depend on key order', () => {
      const document = shopDocument();
      const shuffled = Object.fromEntries(Object.entries(document).reverse()) as typeof document;
      expect(documentHash(shuffled)).toBe(documentHash(document));
    });

    it('is a sha-256 hex digest', () => {
      expect(documentHash(shopDocument())).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});
