// The gateway's 304s from proven ETags (src/representation-cache.ts), through the real system: a gateway in
// front of the real services, a fresh PostgreSQL database, diagram events through the diagrams outbox.
// Changes the API cannot make (a change whose event is lost, a deletion) are made in the database.
import { createServiceClient, enqueueEvent } from '@dss/platform';
import { eventually } from '@dss/platform/testing';
import { startTestSystem, TestPeople, type TestSystem, twoTableShopPatch } from '@dss/system';
import { Client } from 'pg';

type Answer = { status: number; etag: string | null; body: string; headers: Headers };
const SCHEMA_LIMIT = 200;

async function getSchema(system: TestSystem, token: string, uuid: string, ifNoneMatch?: string) {
  const response = await fetch(`${system.apiUrl}/diagrams/${uuid}/schema`, {
    headers: { authorization: `Bearer ${token}`, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
  });
  const body = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    body,
    headers: response.headers,
  } as Answer;
}

async function createDiagram(system: TestSystem, token: string): Promise<string> {
  const response = await fetch(`${system.apiUrl}/diagrams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Shop ${Math.random()}`, driver: 'pgsql', schema: twoTableShopPatch() }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { uuid: string } }).data.uuid;
}

/** 304s the gateway answered without asking the diagrams service, from its metrics. */
async function provenAnswers(system: TestSystem): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${system.adminPort}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith('dss_gateway_etag_proof_answers_total'));
  return Number(line?.split(' ').pop() ?? 0);
}

async function inDatabase(system: TestSystem, work: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ connectionString: system.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

describe('Conditional GET /schema answered from proven ETags (real gateway, real services)', () => {
  describe('with events flowing (proofs kept 60 s, so only an event can end one early)', () => {
    let system: TestSystem;
    let people: TestPeople;
    let writer: { token: string; userId: string };
    let outsider: string;

    beforeAll(async () => {
      system = await startTestSystem({
        DSS_ETAG_PROOF_MS: '60000',
        DSS_RATE_LIMIT_SCHEMA_PER_MIN: String(SCHEMA_LIMIT),
      });
      people = new TestPeople(system.grpc.accounts);
      writer = await people.member({ team: 'alpha', write: true });
      outsider = (await people.member({ team: 'beta' })).token;
    });

    afterAll(async () => {
      people?.close();
      await system?.stop();
    });

    it('should answer repeated conditional requests 304 without asking the diagrams service', async () => {
      const uuid = await createDiagram(system, writer.token);
      const first = await getSchema(system, writer.token, uuid);
      expect(first.status).toBe(200);
      // The create's own event may arrive after the first read, or after a later one, and end the proof
      // (outbox → relay → bus → gateway: under load that can take longer than a few reads); the next read
      // proves again. Once it has arrived, three reads in a row are all answered from the proof.
      await eventually(async () => {
        const before = await provenAnswers(system);
        for (let i = 0; i < 3; i++) {
          const answer = await getSchema(system, writer.token, uuid, first.etag!);
          expect([answer.status, answer.etag, answer.body]).toEqual([304, first.etag, '']);
          expect(answer.headers.get('vary')).toBe('Accept');
          expect(answer.headers.get('cache-control')).toBe('private, no-cache');
          expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
          expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
          expect(answer.headers.get('x-ratelimit-limit')).toBe(String(SCHEMA_LIMIT));
          expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeLessThan(SCHEMA_LIMIT);
        }
        expect(await provenAnswers(system)).toBe(before + 3);
      }, 10_000);
    });

    it('should count proven 304s against the schema limit and answer 429 past it', async () => {
      const uuid = await createDiagram(system, writer.token);
      const reader = (await people.member({ team: 'alpha' })).token;
      const { etag } = await getSchema(system, reader, uuid);
      const statuses: number[] = [];
      for (let i = 1; i < SCHEMA_LIMIT; i++)
        statuses.push((await getSchema(system, reader, uuid, etag!)).status);
      expect(statuses.every((status) => status === 304)).toBe(true);
      const refused = await getSchema(system, reader, uuid, etag!);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body).error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('should answer other Accept values and queries the normal way, each with its own ETag', async () => {
      const uuid = await createDiagram(system, writer.token);
      const json = await getSchema(system, writer.token, uuid);
      const markdown = await fetch(`${system.apiUrl}/diagrams/${uuid}/schema?format=ai`, {
        headers: { authorization: `Bearer ${writer.token}`, 'if-none-match': json.etag! },
      });
      expect(markdown.status).toBe(200);
      expect(markdown.headers.get('content-type')).toMatch(/^text\/markdown/);
      const upper = await getSchema(system, writer.token, uuid.toUpperCase(), json.etag!);
      expect(upper.status).toBe(304);
    });

    it('should answer 404 to another team holding the current ETag, and not from the proof', async () => {
      const uuid = await createDiagram(system, writer.token);
      const { etag } = await getSchema(system, writer.token, uuid);
      await getSchema(system, writer.token, uuid, etag!);
      const before = await provenAnswers(system);
      // Twice: the second comes from a token the gateway has cached, so it is answered before routing.
      for (const ifNoneMatch of [etag!, etag!, undefined]) {
        const answer = await getSchema(system, outsider, uuid, ifNoneMatch);
        expect([answer.status, answer.etag, answer.headers.get('vary')]).toEqual([404, null, 'Accept']);
        expect(JSON.parse(answer.body)).toEqual({
          error: { code: 'not_found', message: expect.any(String) },
        });
      }
      expect(await provenAnswers(system)).toBe(before);
    });

    it('should answer 200 with the new ETag once a change through the API is applied', async () => {
      const uuid = await createDiagram(system, writer.token);
      const old = await getSchema(system, writer.token, uuid);
      expect((await getSchema(system, writer.token, uuid, old.etag!)).status).toBe(304);

      const proposed = await fetch(`${system.apiUrl}/diagrams/${uuid}/proposals`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Add a phone number',
          message: 'Support calls need it.',
          schema: {
            strategy: 'additive',
            tables: [{ name: 'customers', columns: [{ name: 'phone', type: 'varchar(32)' }] }],
          },
        }),
      });
      expect(proposed.status).toBe(201);
      const proposal = ((await proposed.json()) as { data: { uuid: string } }).data.uuid;
      // Applied as a reviewer does (the web app, the CLI's `proposal apply`): through the proposals service.
      const client = createServiceClient('Proposals', system.grpc.proposals);
      try {
        await client.ApplyProposal({ uuid: proposal, user_id: writer.userId, team_id: '', reason: '' });
      } finally {
        client.close();
      }

      // The event travels outbox → relay → bus → gateway; a proof kept 60 s ends only through it.
      let changed: Answer | undefined;
      await eventually(async () => {
        changed = await getSchema(system, writer.token, uuid, old.etag!);
        expect(changed.status).toBe(200);
      }, 5000);
      expect(changed!.etag).not.toBe(old.etag);
      expect(changed!.body).toContain('"phone"');
      expect((await getSchema(system, writer.token, uuid, changed!.etag!)).status).toBe(304);
    });

    it('should answer 404, not 304, once a deleted diagram’s event arrives', async () => {
      const uuid = await createDiagram(system, writer.token);
      const { etag } = await getSchema(system, writer.token, uuid);
      expect((await getSchema(system, writer.token, uuid, etag!)).status).toBe(304);
      await inDatabase(system, async (client) => {
        for (const table of [
          'diagram_contents',
          'diagram_update_times',
          'create_replays',
          'diagram_versions',
        ])
          await client.query(
            `DELETE FROM diagrams.${table} WHERE diagram_uuid = $1`, // table names are fixed above
            [uuid],
          );
        await client.query('DELETE FROM diagrams.diagrams WHERE uuid = $1', [uuid]);
        await enqueueEvent(client, 'diagrams', 'diagrams.changed', { diagram_uuid: uuid, source: 'delete' });
      });
      await eventually(async () => {
        expect((await getSchema(system, writer.token, uuid, etag!)).status).toBe(404);
      }, 5000);
    });
  });

  describe('with an event lost', () => {
    let system: TestSystem;
    let people: TestPeople;

    beforeAll(async () => {
      system = await startTestSystem({ DSS_ETAG_PROOF_MS: '1000' });
      people = new TestPeople(system.grpc.accounts);
    });

    afterAll(async () => {
      people?.close();
      await system?.stop();
    });

    it('should ask the service again once the proof is DSS_ETAG_PROOF_MS old, and answer 200', async () => {
      const { token } = await people.member({ team: 'gamma', write: true });
      const uuid = await createDiagram(system, token);
      const { etag } = await getSchema(system, token, uuid);
      expect((await getSchema(system, token, uuid, etag!)).status).toBe(304);
      // A change that publishes no event: nothing but the proof's age can end the proof.
      await inDatabase(system, (client) =>
        client
          .query(
            `UPDATE diagrams.diagram_contents SET schema_json_etag = '"changed-silently"' WHERE diagram_uuid = $1`,
            [uuid],
          )
          .then(() => undefined),
      );
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const answer = await getSchema(system, token, uuid, etag!);
      expect([answer.status, answer.etag]).toEqual([200, '"changed-silently"']);
    });
  });
});
