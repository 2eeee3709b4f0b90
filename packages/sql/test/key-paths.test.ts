// One truth for keys, seen from SQL: a primary key changed through the column flags and through its index
// entry (as the patch contract documents it) gives the same migration and the same export, and the
// migration really moves the key on PostgreSQL.
import { apply, type DiagramDocument, normalize, validate } from '@dss/schema';
import { createScript, migrationScript } from '../src';
import { scratchPostgres } from './real-db';

const BASE = {
  strategy: 'merge',
  tables: [
    {
      name: 'members',
      columns: [
        { name: 'id', type: 'integer', is_primary_key: true },
        { name: 'team_id', type: 'integer', is_nullable: false },
        { name: 'email', type: 'varchar(200)' },
      ],
      indexes: [{ name: 'members_pkey', type: 'primary', columns: ['id'] }],
    },
  ],
};

function applied(document: DiagramDocument, input: object): DiagramDocument {
  const result = validate(
    normalize(input).patch,
    document,
    'pgsql',
    document.tables.length ? 'propose' : 'create',
  );
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return apply(document, result.patch).document;
}

describe('a primary key changed through the flags or through the index entry', () => {
  const base = applied(
    { driver: 'pgsql', schema_version: 1, tables: [], relationships: [], groups: [], sticky_notes: [] },
    BASE,
  );
  const byFlags = applied(base, {
    strategy: 'merge',
    tables: [{ name: 'members', columns: [{ name: 'team_id', type: 'integer', is_primary_key: true }] }],
  });
  const byIndex = applied(base, {
    strategy: 'merge',
    tables: [
      { name: 'members', indexes: [{ name: 'members_pkey', type: 'primary', columns: ['id', 'team_id'] }] },
    ],
  });

  it('should give the same migration and the same export', () => {
    expect(migrationScript(base, byIndex)).toEqual(migrationScript(base, byFlags));
    expect(createScript(byIndex)).toEqual(createScript(byFlags));
    expect(createScript(byIndex).sql).toContain('PRIMARY KEY ("id", "team_id")');
    expect(migrationScript(base, byIndex).statements.length).toBeGreaterThan(0);
  });

  it('should move the key on a real PostgreSQL database built from the base export', async () => {
    const database = await scratchPostgres();
    try {
      await database.run(createScript(base).sql);
      await database.run("INSERT INTO members VALUES (1, 10, 'a@example.test')");
      await database.run(migrationScript(base, byIndex).sql);
      const shape = await database.shape();
      expect(shape.tables.members!.primary).toContain('team_id');
    } finally {
      await database.drop();
    }
  });
});
