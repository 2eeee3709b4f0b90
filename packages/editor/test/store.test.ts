// The editor store: edits go through the patch engine (a refused one changes nothing), each is undone by
// its inverse and redone by its patch, at least 100 steps back, and the document after undo is the one
// before the edit, measured record by record.
import { emptyDocument } from '@dss/schema';
import { EditorStore, patchBetween, UNDO_LIMIT } from '../src';

const table = (name: string, left: number, columns: Record<string, unknown>[] = []) => ({
  name,
  left,
  top: 20,
  columns: [{ name: 'id', type: 'bigint', is_primary_key: true }, ...columns],
});

/** The document without uuids (records made again by undo get new ones). */
function shape(store: EditorStore) {
  return JSON.parse(JSON.stringify(store.document, (key, value) => (key === 'uuid' ? undefined : value)));
}

describe('EditorStore', () => {
  describe('.edit()', () => {
    it('should apply an accepted edit and refuse one the engine refuses, changing nothing', () => {
      const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
      expect(store.edit('Add table', { strategy: 'merge', tables: [table('users', 20)] })).toEqual({
        ok: true,
      });
      const before = store.document;
      const refused = store.edit('Add column', {
        strategy: 'merge',
        tables: [{ name: 'users', columns: [{ name: 'nick', type: 'character varying(99999999)' }] }],
      });
      expect(refused.ok).toBe(false);
      expect(refused.ok ? '' : refused.problems.map((problem) => problem.message).join(' ')).toMatch(
        /length/,
      );
      expect(store.document).toBe(before);
      expect(store.undoDepth).toBe(1);
    });
  });

  describe('.undo() and .redo()', () => {
    it('should undo a table delete with its columns, relationships and position, and redo it', () => {
      const store = new EditorStore(emptyDocument('mysql'), 'mysql');
      store.edit('Add tables', {
        strategy: 'merge',
        tables: [table('users', 20), table('orders', 400, [{ name: 'user_id', type: 'bigint' }])],
        relationships: [
          {
            type: 'many-to-one',
            source_table: 'orders',
            source_column: 'user_id',
            target_table: 'users',
            target_column: 'id',
          },
        ],
      });
      const before = shape(store);
      store.edit('Delete table', { strategy: 'merge', deletions: { tables: ['users'] } });
      expect(store.document.tables.map((t) => t.name)).toEqual(['orders']);
      expect(store.document.relationships).toEqual([]);
      expect(store.undo()).toEqual({ ok: true });
      expect(shape(store).relationships).toEqual(before.relationships);
      expect(shape(store).tables.find((t: { name: string }) => t.name === 'users')).toEqual(
        before.tables.find((t: { name: string }) => t.name === 'users'),
      );
      store.redo();
      expect(store.document.tables.map((t) => t.name)).toEqual(['orders']);
    });

    it('should undo a column rename and a move', () => {
      const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
      store.edit('Add table', {
        strategy: 'merge',
        tables: [table('users', 20, [{ name: 'mail', type: 'text' }])],
      });
      const before = shape(store);
      store.edit('Rename column', {
        strategy: 'merge',
        tables: [{ name: 'users', columns: [{ name: 'email', old_name: 'mail', type: 'text' }] }],
      });
      store.edit('Move table', {
        strategy: 'merge',
        tables: [{ name: 'users', left: 300, top: 90, columns: [] }],
      });
      expect(store.document.tables[0]).toMatchObject({ left: 300, top: 90 });
      store.undo();
      store.undo();
      expect(shape(store)).toEqual(before);
    });

    it(`should reach back ${UNDO_LIMIT} steps, at least 100`, () => {
      expect(UNDO_LIMIT).toBeGreaterThanOrEqual(100);
      const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
      store.edit('Add table', { strategy: 'merge', tables: [table('t', 0)] });
      const start = shape(store);
      for (let step = 1; step <= 100; step++)
        store.edit('Move', {
          strategy: 'merge',
          tables: [{ name: 't', left: step * 10, top: 0, columns: [] }],
        });
      for (let step = 0; step < 100; step++) expect(store.undo()).toEqual({ ok: true });
      expect(shape(store)).toEqual(start);
      for (let step = 0; step < 100; step++) store.redo();
      expect(store.document.tables[0]!.left).toBe(1000);
    });
  });
});

describe('EditorStore › .replaceDocument()', () => {
  it("should let undo remove a note after the server's copy gave it another uuid", () => {
    const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
    store.edit('Add note', { strategy: 'merge', sticky_notes: [{ content: 'hello', left: 5, top: 6 }] });
    const local = store.document;
    const server = {
      ...local,
      sticky_notes: local.sticky_notes.map((note) => ({
        ...note,
        uuid: '00000000-0000-4000-8000-000000000001',
      })),
    };
    store.replaceDocument(server);
    expect(store.undo()).toEqual({ ok: true });
    expect(store.document.sticky_notes).toEqual([]);
  });

  it('should redo a note delete after its undo wrote the note back under a new uuid', () => {
    const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
    store.edit('Add note', { strategy: 'merge', sticky_notes: [{ content: 'hello', left: 5, top: 6 }] });
    const uuid = store.document.sticky_notes[0]!.uuid;
    store.edit('Delete note', { strategy: 'merge', deletions: { sticky_notes: [uuid] } });
    store.undo();
    expect(store.document.sticky_notes.map((note) => note.content)).toEqual(['hello']);
    expect(store.redo()).toEqual({ ok: true });
    expect(store.document.sticky_notes).toEqual([]);
    expect(store.undo()).toEqual({ ok: true });
    expect(store.undo()).toEqual({ ok: true });
    expect(store.document.sticky_notes).toEqual([]);
  });
});

describe('patchBetween()', () => {
  it('should write the patch that turns one document into the other, for a copy with other uuids too', () => {
    const first = new EditorStore(emptyDocument('pgsql'), 'pgsql');
    first.edit('Add', {
      strategy: 'merge',
      tables: [table('a', 0, [{ name: 'x', type: 'text' }]), table('b', 300)],
    });
    const saved = first.document;
    first.edit('Change', {
      strategy: 'merge',
      tables: [{ name: 'a2', old_name: 'a', columns: [{ name: 'y', old_name: 'x', type: 'integer' }] }],
      deletions: { tables: ['b'] },
    });
    first.edit('Add c', { strategy: 'merge', tables: [table('c', 600)] });
    const patch = patchBetween(saved, first.document);
    // Applied to the saved document as the server holds it (the same, other uuids for nothing here).
    const server = new EditorStore(saved, 'pgsql');
    expect(server.applyUnrecorded(patch)).toEqual({ ok: true });
    expect(shape(server)).toEqual(shape(first));
  });

  it('should write nothing for a relationship saved, undone and redone (it comes back under a new uuid)', () => {
    const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
    store.edit('Add tables', {
      strategy: 'merge',
      tables: [table('authors', 0), table('books', 300, [{ name: 'author_id', type: 'bigint' }])],
    });
    const relationship = {
      type: 'many-to-one',
      source_table: 'books',
      source_column: 'author_id',
      target_table: 'authors',
      target_column: 'id',
    };
    store.edit('Add relationship', { strategy: 'merge', relationships: [relationship] });
    const saved = store.document;
    store.undo();
    store.redo();
    expect(store.document.relationships[0]!.uuid).not.toBe(saved.relationships[0]!.uuid);
    expect(patchBetween(saved, store.document)).toEqual({ strategy: 'merge' });
    // A type changed on the way back is written as a change, not as a delete and an add.
    store.undo();
    store.edit('Add relationship', {
      strategy: 'merge',
      relationships: [{ ...relationship, type: 'one-to-one' }],
    });
    const patch = patchBetween(saved, store.document);
    expect(patch.deletions).toBeUndefined();
    expect(patch.relationships).toEqual([{ ...relationship, type: 'one-to-one' }]);
    expect(new EditorStore(saved, 'pgsql').applyUnrecorded(patch)).toEqual({ ok: true });
  });

  describe('colours', () => {
    it('should colour a table as one undoable step, and carry the colour in the save patch', () => {
      const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
      store.edit('Add table', { strategy: 'merge', tables: [table('users', 20)] });
      const saved = store.document;
      expect(
        store.edit('Colour table', { strategy: 'merge', colors: { tables: { users: '#FF8800' } } }),
      ).toEqual({
        ok: true,
      });
      expect(store.document.tables[0]?.color).toBe('#ff8800');
      expect(patchBetween(saved, store.document)).toEqual({
        strategy: 'merge',
        colors: { tables: { users: '#ff8800' } },
      });
      store.undo();
      expect(store.document.tables[0]?.color).toBeNull();
      store.redo();
      expect(store.document.tables[0]?.color).toBe('#ff8800');
    });

    it('should refuse a colour for a table that is not there, changing nothing', () => {
      const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
      const before = store.document;
      const refused = store.edit('Colour table', {
        strategy: 'merge',
        colors: { tables: { ghosts: '#fff' } },
      });
      expect(refused.ok).toBe(false);
      expect(store.document).toBe(before);
      expect(store.undoDepth).toBe(0);
    });
  });

  describe('column order', () => {
    it('should move a column as one undoable step, and put a deleted middle column back in its place on undo', () => {
      const store = new EditorStore(emptyDocument('pgsql'), 'pgsql');
      store.edit('Add table', {
        strategy: 'merge',
        tables: [
          table('users', 20, [
            { name: 'email', type: 'text' },
            { name: 'name', type: 'text' },
          ]),
        ],
      });
      const names = () => store.document.tables[0]!.columns.map((column) => column.name);
      const saved = store.document;
      expect(
        store.edit('Move column', { strategy: 'merge', column_order: { users: ['id', 'name', 'email'] } }),
      ).toEqual({
        ok: true,
      });
      expect(names()).toEqual(['id', 'name', 'email']);
      expect(patchBetween(saved, store.document)).toEqual({
        strategy: 'merge',
        column_order: { users: ['id', 'name', 'email'] },
      });
      store.undo();
      expect(names()).toEqual(['id', 'email', 'name']);

      store.edit('Delete column', {
        strategy: 'merge',
        deletions: { columns: [{ table: 'users', columns: ['email'] }] },
      });
      expect(names()).toEqual(['id', 'name']);
      store.undo();
      expect(names()).toEqual(['id', 'email', 'name']);
    });
  });
});
