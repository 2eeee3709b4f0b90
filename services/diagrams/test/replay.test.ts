import {
  createFromPatch,
  type DiagramsHarness,
  failureOf,
  newPrincipal,
  shopPatch,
  startDiagramsHarness,
  tablesPatch,
} from './helpers';

describe('Diagrams.CreateDiagram replays (spec "Retry rules")', () => {
  describe('within the 120 s window', () => {
    let harness: DiagramsHarness;

    beforeAll(async () => {
      harness = await startDiagramsHarness();
    });
    afterAll(async () => {
      await harness.stop();
    });

    const teamDiagramCount = async (teamId: string) =>
      (
        await harness.service.pool.query(
          'SELECT count(*)::int AS n FROM diagrams.diagrams WHERE team_id = $1',
          [teamId],
        )
      ).rows[0].n as number;

    it('should return the first diagram with replayed true, the same counts and warnings', async () => {
      const principal = newPrincipal();
      const patch = shopPatch({ extra_key: 1 });
      const first = await createFromPatch(harness.client, principal, patch, { name: 'Shop' });
      const again = await createFromPatch(harness.client, principal, patch, { name: 'Shop' });
      expect(again.replayed).toBe(true);
      expect(again.diagram!.uuid).toBe(first.diagram!.uuid);
      expect(JSON.parse(again.counts_json)).toEqual(JSON.parse(first.counts_json));
      expect(JSON.parse(again.warnings_json)).toEqual(JSON.parse(first.warnings_json));
      expect(await teamDiagramCount(principal.team_id)).toBe(1);
    });

    it('should treat a different name, driver, payload or token as a new request', async () => {
      const principal = newPrincipal();
      const base = await createFromPatch(harness.client, principal, shopPatch(), { name: 'A' });
      const variants = [
        createFromPatch(harness.client, principal, shopPatch(), { name: 'B' }),
        createFromPatch(harness.client, principal, shopPatch(), { name: 'A', driver: 'pgsql' }),
        createFromPatch(harness.client, principal, tablesPatch(1), { name: 'A' }),
        createFromPatch(harness.client, { ...principal, token_id: newPrincipal().token_id }, shopPatch(), {
          name: 'A',
        }),
      ];
      for (const variant of await Promise.all(variants)) {
        expect(variant.replayed).toBe(false);
        expect(variant.diagram!.uuid).not.toBe(base.diagram!.uuid);
      }
    });

    it('should replay even when the plan cap has been reached since the first attempt', async () => {
      const principal = newPrincipal({ caps: { max_private_diagrams: 1 } });
      const first = await createFromPatch(harness.client, principal);
      const again = await createFromPatch(harness.client, principal);
      expect(again).toMatchObject({ replayed: true, diagram: { uuid: first.diagram!.uuid } });
    });

    it('should create one diagram for identical requests sent at the same moment', async () => {
      const principal = newPrincipal();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          createFromPatch(harness.client, principal, shopPatch(), { name: 'Same' }),
        ),
      );
      expect(new Set(answers.map((answer) => answer.diagram!.uuid)).size).toBe(1);
      expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
      expect(await teamDiagramCount(principal.team_id)).toBe(1);
    });

    it('should never replay a failed create: a repeat is a fresh attempt', async () => {
      const principal = newPrincipal({ caps: { max_tables_per_diagram: 1 } });
      const error = await failureOf(createFromPatch(harness.client, principal, tablesPatch(2)));
      expect(error.code).toBe('plan_limit');
      const raised = { ...principal, caps: { max_tables_per_diagram: 5 } };
      const retry = await createFromPatch(harness.client, raised, tablesPatch(2));
      expect(retry.replayed).toBe(false);
      expect(retry.diagram!.table_count).toBe(2);
    });
  });

  // A 3 s window: each pair of calls that must fall inside it is two gRPC calls apart, which on the loaded
  // 2-core CI machine (the image is built while the tests run) once took longer than a 1 s window.
  describe('after the window (DSS_REPLAY_WINDOW_SECONDS=3)', () => {
    let harness: DiagramsHarness;

    beforeAll(async () => {
      harness = await startDiagramsHarness({ DSS_REPLAY_WINDOW_SECONDS: '3' });
    });
    afterAll(async () => {
      await harness.stop();
    });

    it('should replay inside the window and create a new diagram after it', async () => {
      const principal = newPrincipal();
      const first = await createFromPatch(harness.client, principal);
      const inside = await createFromPatch(harness.client, principal);
      expect(inside).toMatchObject({ replayed: true, diagram: { uuid: first.diagram!.uuid } });
      await new Promise((resolve) => setTimeout(resolve, 3200));
      const after = await createFromPatch(harness.client, principal);
      expect(after.replayed).toBe(false);
      expect(after.diagram!.uuid).not.toBe(first.diagram!.uuid);
      const repeat = await createFromPatch(harness.client, principal);
      expect(repeat).toMatchObject({ replayed: true, diagram: { uuid: after.diagram!.uuid } });
    });
  });
});
