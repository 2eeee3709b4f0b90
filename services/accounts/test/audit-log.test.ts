// The audit log inside accounts: entries carry the request id, client IP and actor an edge passed in gRPC
// metadata, and the retention sweeper purges entries past DSS_AUDIT_RETENTION_DAYS and nothing younger.
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type AccountsHarness, auditEvents, seedMember, startAccountsHarness } from './helpers';

describe('accounts audit log', () => {
  let harness: AccountsHarness;

  beforeAll(async () => {
    harness = await startAccountsHarness({
      env: { DSS_AUDIT_RETENTION_DAYS: '30', DSS_AUDIT_SWEEP_INTERVAL_MS: '100' },
    });
  });
  afterAll(async () => {
    await harness?.stop();
  });

  async function entriesOf(action: string, target: string) {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const events = await auditEvents(harness.client, { action, target, limit: 10 });
      if (events.length > 0) return events;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${action} entry`);
  }

  describe('.IssueToken()', () => {
    it('should record the request id, client IP and token actor the caller sent in metadata', async () => {
      await seedMember(harness.client, { team: 'audit-meta', email: 'owner@audit-meta.test', role: 'owner' });
      const actingToken = randomUUID();
      const actingUser = randomUUID();
      const issued = await harness.client.IssueToken(
        {
          team_slug: 'audit-meta',
          user_email: 'owner@audit-meta.test',
          name: 'from the edge',
          write: false,
          expires_in: '',
          expires_at: '',
        },
        {
          metadata: {
            'x-request-id': 'req-audit-1',
            'x-dss-client-ip': '203.0.113.9',
            'x-dss-actor': JSON.stringify({ kind: 'token', id: actingToken, user_id: actingUser }),
          },
        },
      );
      const [entry] = await entriesOf('token.created', issued.record!.id);
      expect(entry).toMatchObject({
        request_id: 'req-audit-1',
        ip: '203.0.113.9',
        actor: { kind: 'token', id: actingToken, user_id: actingUser },
        target: { kind: 'token', id: issued.record!.id, name: 'from the edge' },
      });
    });
  });

  describe('retention sweeper', () => {
    it('should purge entries older than the retention period and keep younger ones', async () => {
      const database = new Client({ connectionString: harness.database.url });
      await database.connect();
      try {
        const [old, young] = [randomUUID(), randomUUID()];
        for (const [id, age] of [
          [old, '31 days'],
          [young, '29 days'],
        ])
          await database.query(
            `INSERT INTO accounts.audit_events (id, action, actor_kind, target_kind, created_at)
             VALUES ($1, 'diagram.created', 'system', 'diagram', now() - $2::interval)`,
            [id, age],
          );
        const present = async () =>
          (
            await database.query('SELECT id FROM accounts.audit_events WHERE id = ANY($1)', [[old, young]])
          ).rows.map((row) => row.id as string);
        for (let attempt = 0; attempt < 100 && (await present()).includes(old); attempt += 1)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await present()).toEqual([young]);
      } finally {
        await database.end();
      }
    });
  });
});
