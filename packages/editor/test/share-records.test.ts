// The server's copy of a saved document keeps the editor's record objects where their content is the same,
// so the drawing's per-record markup stays valid after a save; a record that did change is the new one.
import { type DiagramDocument, emptyDocument } from '@dss/schema';
import { EditorStore } from '../src';
import { sameContent, shareUnchanged } from '../src/share-records';

/** A deep copy: what the server answers a save with (same content, new objects). */
const copyOf = (document: DiagramDocument): DiagramDocument => JSON.parse(JSON.stringify(document));

function twoTables(): EditorStore {
  const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
  const result = store.edit('Add tables', {
    strategy: 'merge',
    tables: [
      { name: 'users', left: 20, top: 20, columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
      {
        name: 'posts',
        left: 400,
        top: 20,
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'user_id', type: 'bigint' },
        ],
      },
    ],
    relationships: [
      {
        type: 'many-to-one',
        source_table: 'posts',
        source_column: 'user_id',
        target_table: 'users',
        target_column: 'id',
      },
    ],
  });
  if (!result.ok) throw new Error(result.message);
  return store;
}

describe('shareUnchanged', () => {
  it('should keep the whole document when the copy has the same content', () => {
    const store = twoTables();
    const before = store.document;
    expect(shareUnchanged(before, copyOf(before))).toBe(before);
  });

  it('should keep unchanged records and take the changed one from the copy', () => {
    const store = twoTables();
    const before = store.document;
    const copy = copyOf(before);
    const posts = copy.tables.find((table) => table.name === 'posts')!;
    posts.comment = 'written by the server';
    const shared = shareUnchanged(before, copy);
    expect(shared).not.toBe(before);
    expect(shared.tables.find((table) => table.name === 'users')).toBe(
      before.tables.find((table) => table.name === 'users'),
    );
    expect(shared.tables.find((table) => table.name === 'posts')).toBe(posts);
    expect(shared.relationships).toBe(before.relationships);
    expect(shared).toEqual(copy);
  });

  it('should follow the copy where records were added, removed or reordered', () => {
    const store = twoTables();
    const before = store.document;
    const copy = copyOf(before);
    copy.tables.reverse();
    copy.relationships = [];
    const shared = shareUnchanged(before, copy);
    expect(shared.tables.map((table) => table.name)).toEqual(copy.tables.map((table) => table.name));
    expect(shared.tables[0]).toBe(before.tables[1]);
    expect(shared.relationships).toEqual([]);
    expect(shared).toEqual(copy);
  });

  it('should take the copy when a document-level field differs', () => {
    const store = twoTables();
    const before = store.document;
    const copy = { ...copyOf(before), schema_version: before.schema_version + 1 };
    const shared = shareUnchanged(before, copy);
    expect(shared).not.toBe(before);
    expect(shared.schema_version).toBe(before.schema_version + 1);
    expect(shared.tables).toBe(before.tables);
  });
});

describe('EditorStore.replaceDocument()', () => {
  it('should keep the records of a saved copy the server answered with, so nothing is drawn again', () => {
    const store = twoTables();
    const before = store.document;
    store.replaceDocument(copyOf(before));
    expect(store.document).toBe(before);
  });
});

describe('sameContent', () => {
  it('should compare objects by keys in any order and arrays in order', () => {
    expect(sameContent({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameContent({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameContent([1, 2], [2, 1])).toBe(false);
    expect(sameContent({ a: undefined }, {})).toBe(true);
    expect(sameContent({ a: null }, {})).toBe(false);
    expect(sameContent([], {})).toBe(false);
  });
});
