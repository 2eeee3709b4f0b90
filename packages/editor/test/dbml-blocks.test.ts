// The DBML pane reads only the blocks a person changed: the excerpts must hold those blocks, what they name,
// and the enums, with every line where it was; any other change is read whole.
import { changedExcerpts, dbmlBlocks } from '../src/dbml-blocks';

const TEXT = [
  'Enum status {',
  '  open',
  '}',
  '',
  'Table users {',
  '  id int [pk]',
  '}',
  '',
  'Table "sales"."orders" {',
  '  id int [pk]',
  "  note varchar [note: 'a { brace'] // }",
  '}',
  '',
  'Table teams {',
  '  id int [pk]',
  '}',
  '',
  'Ref: "sales"."orders".id > users.id',
].join('\n');

describe('dbmlBlocks()', () => {
  it('should split the text into its top-level blocks, braces in strings and comments ignored', () => {
    const blocks = dbmlBlocks(TEXT)!;
    expect(blocks.map((block) => [block.kind, block.kind === 'ref' ? 'ref' : block.name])).toEqual([
      ['enum', 'status'],
      ['table', 'users'],
      ['table', 'sales.orders'],
      ['table', 'teams'],
      ['ref', 'ref'],
    ]);
  });

  it('should answer null for an unclosed block', () => {
    expect(dbmlBlocks('Table users {\n  id int')).toBeNull();
  });
});

describe('changedExcerpts()', () => {
  it('should keep the changed table, the tables it names and the enums, each line in its place', () => {
    const after = TEXT.replace('// }\n', '// }\n  user int [ref: > users.id]\n');
    const excerpts = changedExcerpts(TEXT, after)!;
    expect(excerpts.after.split('\n')).toHaveLength(after.split('\n').length);
    expect(excerpts.after).toContain('Table "sales"."orders"');
    expect(excerpts.after).toContain('user int [ref: > users.id]');
    expect(excerpts.after).toContain('Table users');
    expect(excerpts.after).toContain('Enum status');
    expect(excerpts.after).not.toContain('Table teams');
    expect(excerpts.after).not.toContain('Ref:');
    expect(excerpts.before).not.toContain('user int');
    expect(excerpts.before.split('\n').findIndex((line) => line.startsWith('Table users'))).toBe(4);
  });

  it('should keep a changed Ref line with both its tables', () => {
    const after = TEXT.replace('Ref: "sales"."orders".id > users.id', 'Ref: "sales"."orders".id > teams.id');
    const excerpts = changedExcerpts(TEXT, after)!;
    expect(excerpts.before).toContain('users.id');
    expect(excerpts.after).toContain('> teams.id');
    expect(excerpts.after).toContain('Table teams');
  });

  it('should read the whole text when an enum changes or a table goes', () => {
    expect(changedExcerpts(TEXT, TEXT.replace('  open', '  open\n  closed'))).toBeNull();
    expect(changedExcerpts(TEXT, TEXT.replace('Table teams {\n  id int [pk]\n}', ''))).toBeNull();
  });
});
