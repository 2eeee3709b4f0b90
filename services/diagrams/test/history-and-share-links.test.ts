// Restoring and labelling versions (src/version-history.ts) and share links (src/share-links.ts) against a
// real service and PostgreSQL.
import { randomUUID } from 'node:crypto';
import {
  createFromPatch,
  type DiagramsHarness,
  failureOf,
  newPrincipal,
  shopPatch,
  startDiagramsHarness,
  type TestPrincipal,
} from './helpers';

describe('Version history and share links', () => {
  let harness: DiagramsHarness;
  let clock = Date.now();
  const now = () => new Date(clock);
  let owner: TestPrincipal;
  let editor: TestPrincipal;
  let viewer: TestPrincipal;
  let stranger: TestPrincipal;

  beforeAll(async () => {
    harness = await startDiagramsHarness({}, { now });
    owner = newPrincipal({ role: 'owner' });
    editor = newPrincipal({ team: owner, role: 'editor' });
    viewer = newPrincipal({ team: owner, role: 'viewer' });
    stranger = newPrincipal({ role: 'owner' });
  });
  afterAll(async () => {
    await harness.stop();
  });

  const create = async () =>
    (
      await createFromPatch(harness.client, { ...owner, token_id: randomUUID() }, shopPatch(), {
        name: 'Shop',
        driver: 'pgsql',
      })
    ).diagram!;
  const addTable = (uuid: string, name: string) =>
    harness.client.ApplyPatch({
      diagram_uuid: uuid,
      team_id: owner.team_id,
      user_id: owner.user_id,
      patch_json: JSON.stringify({
        strategy: 'additive',
        tables: [{ name, columns: [{ name: 'id', type: 'int', is_nullable: false, is_primary_key: true }] }],
      }),
      source: 'paste',
      source_id: '',
    });
  const tableNames = async (uuid: string) =>
    (
      JSON.parse((await harness.client.GetFullDocument({ principal: owner, uuid, known_etag: '' })).body) as {
        data: { tables: { name: string }[] };
      }
    ).data.tables
      .map((table) => table.name)
      .sort();

  describe('RestoreVersion', () => {
    it('should write version 1 again as a new version whose source is restore, naming who and which', async () => {
      const diagram = await create();
      const before = await tableNames(diagram.uuid);
      await addTable(diagram.uuid, 'invoices');
      expect(await tableNames(diagram.uuid)).toContain('invoices');

      const restored = await harness.client.RestoreVersion({
        principal: editor,
        uuid: diagram.uuid,
        number: 1,
      });

      expect(restored.version_number).toBe(3);
      expect(await tableNames(diagram.uuid)).toEqual(before);
      const { versions } = await harness.client.ListVersions({ principal: owner, uuid: diagram.uuid });
      expect(versions[0]).toMatchObject({
        number: 3,
        source: 'restore',
        source_id: '1',
        author_user_id: editor.user_id,
      });
    });

    it('should refuse viewers (editor_required), unknown versions (not_found) and other teams (not_found)', async () => {
      const diagram = await create();
      expect(
        (await failureOf(harness.client.RestoreVersion({ principal: viewer, uuid: diagram.uuid, number: 1 })))
          .code,
      ).toBe('editor_required');
      expect(
        (await failureOf(harness.client.RestoreVersion({ principal: owner, uuid: diagram.uuid, number: 9 })))
          .code,
      ).toBe('not_found');
      expect(
        (
          await failureOf(
            harness.client.RestoreVersion({ principal: stranger, uuid: diagram.uuid, number: 1 }),
          )
        ).code,
      ).toBe('not_found');
    });
  });

  describe('SetVersionLabel', () => {
    it('should label a version, list the label, and clear it with an empty label', async () => {
      const diagram = await create();
      await addTable(diagram.uuid, 'invoices');
      const labelled = await harness.client.SetVersionLabel({
        principal: editor,
        uuid: diagram.uuid,
        number: 1,
        label: ' v1 release ',
      });
      expect(labelled).toMatchObject({ number: 1, label: 'v1 release' });
      const { versions } = await harness.client.ListVersions({ principal: viewer, uuid: diagram.uuid });
      expect(versions.map((version) => version.label)).toEqual(['', 'v1 release']);
      await harness.client.SetVersionLabel({ principal: owner, uuid: diagram.uuid, number: 1, label: '' });
      const after = await harness.client.ListVersions({ principal: owner, uuid: diagram.uuid });
      expect(after.versions[1]!.label).toBe('');
    });

    it('should refuse viewers, labels over 100 characters and unknown versions', async () => {
      const diagram = await create();
      const label = (principal: TestPrincipal, text: string, number = 1) =>
        failureOf(harness.client.SetVersionLabel({ principal, uuid: diagram.uuid, number, label: text }));
      expect((await label(viewer, 'x')).code).toBe('editor_required');
      expect((await label(owner, 'x'.repeat(101))).code).toBe('invalid_request');
      expect((await label(owner, 'x', 5)).code).toBe('not_found');
    });
  });

  describe('Share links', () => {
    it('should open the diagram by its token, store only a hash, and stop at once when revoked', async () => {
      const diagram = await create();
      const created = await harness.client.CreateShareLink({
        principal: editor,
        uuid: diagram.uuid,
        version_number: 0,
        expires_at: '',
      });
      expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const stored = await harness.service.pool.query(
        'SELECT token_hash::text AS hash FROM diagrams.share_links WHERE uuid = $1',
        [created.link!.uuid],
      );
      expect(stored.rows[0].hash).not.toContain(created.token);

      const opened = await harness.client.OpenShareLink({ token: created.token });
      expect(opened.diagram!.uuid).toBe(diagram.uuid);
      expect(opened.version_number).toBe(0);
      expect(JSON.parse(opened.document_json).tables.length).toBeGreaterThan(0);

      const { links } = await harness.client.ListShareLinks({ principal: viewer, uuid: diagram.uuid });
      expect(links).toEqual([
        expect.objectContaining({ uuid: created.link!.uuid, created_by: editor.user_id, revoked_at: '' }),
      ]);

      await harness.client.RevokeShareLink({
        principal: owner,
        uuid: diagram.uuid,
        link_uuid: created.link!.uuid,
      });
      expect((await failureOf(harness.client.OpenShareLink({ token: created.token }))).code).toBe(
        'not_found',
      );
    });

    it('should open a version link at that version and end at its expiry', async () => {
      const diagram = await create();
      await addTable(diagram.uuid, 'invoices');
      const created = await harness.client.CreateShareLink({
        principal: owner,
        uuid: diagram.uuid,
        version_number: 1,
        expires_at: new Date(clock + 60_000).toISOString(),
      });
      const opened = await harness.client.OpenShareLink({ token: created.token });
      expect(opened.version_number).toBe(1);
      expect(JSON.parse(opened.document_json).tables.map((t: { name: string }) => t.name)).not.toContain(
        'invoices',
      );
      clock += 120_000;
      try {
        expect((await failureOf(harness.client.OpenShareLink({ token: created.token }))).code).toBe(
          'not_found',
        );
      } finally {
        clock = Date.now();
      }
    });

    it('should refuse viewers, past expiries, missing versions and other teams', async () => {
      const diagram = await create();
      const make = (principal: TestPrincipal, version_number = 0, expires_at = '') =>
        failureOf(
          harness.client.CreateShareLink({ principal, uuid: diagram.uuid, version_number, expires_at }),
        );
      expect((await make(viewer)).code).toBe('editor_required');
      expect((await make(owner, 0, '2001-01-01T00:00:00Z')).code).toBe('invalid_request');
      expect((await make(owner, 7)).code).toBe('not_found');
      expect((await make(stranger)).code).toBe('not_found');
      expect((await failureOf(harness.client.OpenShareLink({ token: 'not-a-token' }))).code).toBe(
        'not_found',
      );
    });
  });
});
