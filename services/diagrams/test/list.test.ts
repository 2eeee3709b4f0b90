import {
  createFromPatch,
  type DiagramsHarness,
  failureOf,
  newPrincipal,
  startDiagramsHarness,
  type TestPrincipal,
  tablesPatch,
} from './helpers';

describe('Diagrams.ListDiagrams (keyset pages over a snapshot)', () => {
  let harness: DiagramsHarness;

  beforeAll(async () => {
    harness = await startDiagramsHarness();
  });
  afterAll(async () => {
    await harness.stop();
  });

  async function createMany(principal: TestPrincipal, count: number): Promise<string[]> {
    const uuids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await createFromPatch(harness.client, principal, tablesPatch(1), { name: `d${i}` });
      uuids.push(created.diagram!.uuid);
    }
    return uuids;
  }

  let commentSerial = 0;
  function touch(principal: TestPrincipal, uuid: string) {
    commentSerial += 1;
    return harness.client.ApplyPatch({
      diagram_uuid: uuid,
      team_id: principal.team_id,
      user_id: principal.user_id,
      patch_json: JSON.stringify({
        strategy: 'merge',
        tables: [{ name: 't0', comment: `edit ${commentSerial}` }],
      }),
      source: 'api',
      source_id: `test-${commentSerial}`,
    });
  }

  const page = (principal: TestPrincipal, limit: number, cursor = '') =>
    harness.client.ListDiagrams({ principal, limit, cursor });

  it('should list the team’s diagrams newest updated_at first with default limit 25', async () => {
    const principal = newPrincipal();
    const uuids = await createMany(principal, 27);
    await touch(principal, uuids[3]!);
    const first = await page(principal, 0);
    expect(first.diagrams).toHaveLength(25);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(first.diagrams[0]!.uuid).toBe(uuids[3]);
    expect(first.diagrams[1]!.uuid).toBe(uuids[26]);
    const times = first.diagrams.map((diagram) => Date.parse(diagram.updated_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const rest = await page(principal, 0, first.next_cursor!);
    expect(rest.diagrams).toHaveLength(2);
    expect(rest.has_more).toBe(false);
    expect(rest.next_cursor).toBeUndefined();
  });

  it('should return every diagram exactly once while diagrams are updated and created between pages', async () => {
    const principal = newPrincipal();
    const original = await createMany(principal, 30);
    const seen: string[] = [];
    const added: string[] = [];
    let cursor = '';
    let round = 0;
    do {
      // Between page fetches: move a not-yet-listed diagram (oldest first) and an already listed one to the
      // front, and add a new diagram, concurrently with the fetch of the page.
      const notYetSeen = original.filter((uuid) => !seen.includes(uuid));
      const changes = [
        notYetSeen.length > 0 ? touch(principal, notYetSeen[0]!) : Promise.resolve(),
        seen.length > 0 ? touch(principal, seen[seen.length - 1]!) : Promise.resolve(),
        createFromPatch(harness.client, principal, tablesPatch(1), { name: `new ${round}` }).then(
          (created) => {
            added.push(created.diagram!.uuid);
          },
        ),
      ];
      const [result] = await Promise.all([page(principal, 7, cursor), ...changes]);
      expect(result.diagrams.length).toBeLessThanOrEqual(7);
      seen.push(...result.diagrams.map((diagram) => diagram.uuid));
      cursor = result.has_more ? result.next_cursor! : '';
      round += 1;
    } while (cursor !== '' && round < 20);

    const originalSeen = seen.filter((uuid) => original.includes(uuid));
    expect(originalSeen).toHaveLength(30);
    expect(new Set(originalSeen).size).toBe(30);
    expect(new Set(seen).size).toBe(seen.length);
    // Diagrams created after the first page are left out of this listing (the first page's one may race).
    expect(seen.filter((uuid) => added.slice(1).includes(uuid))).toEqual([]);
  });

  it('should keep a diagram that moves to the front after page 1 in its old place, not skip it', async () => {
    const principal = newPrincipal();
    const original = await createMany(principal, 6);
    const first = await page(principal, 3);
    expect(first.diagrams.map((d) => d.uuid)).toEqual([original[5], original[4], original[3]]);
    await touch(principal, original[0]!);
    const second = await page(principal, 3, first.next_cursor!);
    expect(second.diagrams.map((d) => d.uuid)).toEqual([original[2], original[1], original[0]]);
    expect(second.has_more).toBe(false);
    const fresh = await page(principal, 3);
    expect(fresh.diagrams[0]!.uuid).toBe(original[0]);
  });

  it('should never show another team’s diagrams', async () => {
    const teamA = newPrincipal();
    const teamB = newPrincipal();
    const ofA = await createMany(teamA, 3);
    const ofB = await createMany(teamB, 2);
    const listB = await page(teamB, 100);
    expect(listB.diagrams.map((d) => d.uuid).sort()).toEqual([...ofB].sort());
    expect(listB.diagrams.every((d) => d.team_id === teamB.team_id)).toBe(true);
    expect(listB.diagrams.some((d) => ofA.includes(d.uuid))).toBe(false);
  });

  it('should refuse a limit outside 1 to 100 with invalid_request naming limit', async () => {
    for (const limit of [101, -1, 1000]) {
      const error = await failureOf(page(newPrincipal(), limit));
      expect(error.code).toBe('invalid_request');
      expect(error.extra.errors?.[0]?.path).toBe('limit');
    }
  });

  it('should refuse a malformed, edited or other team’s cursor with invalid_request naming cursor', async () => {
    const principal = newPrincipal();
    await createMany(principal, 3);
    const cursor = (await page(principal, 1)).next_cursor!;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const edited = Buffer.from(JSON.stringify({ ...decoded, t: decoded.s }), 'utf8').toString('base64url');
    const bad = [
      'not a cursor',
      'abc',
      Buffer.from('[]').toString('base64url'),
      Buffer.from('{"v":1}').toString('base64url'),
      edited,
      `${cursor}x`,
    ];
    for (const candidate of bad) {
      const error = await failureOf(page(principal, 5, candidate));
      expect(error.code).toBe('invalid_request');
      expect(error.extra.errors?.[0]?.path).toBe('cursor');
    }
    const stranger = newPrincipal();
    const foreign = await failureOf(page(stranger, 5, cursor));
    expect(foreign.code).toBe('invalid_request');
  });
});
