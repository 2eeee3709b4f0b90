// Webhook signing secrets at rest: encrypted with AES-256-GCM under a key id stored beside the ciphertext,
// plain text left by an earlier release encrypted at the next start, and key rotation by the key file.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { eventually } from '@dss/platform/testing';
import { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { newSecret } from '../src/signing';
import { everyEvent, type Harness, ownerOf, publish, Receiver, startHarness } from './support/harness';

jest.setTimeout(60_000);

interface StoredSecret {
  secret: string;
  secret_key_id: string | null;
  previous_secret: string | null;
  previous_secret_key_id: string | null;
}

describe('Webhook secrets at rest', () => {
  let harness: Harness;
  let receiver: Receiver;
  let pool: Pool;

  beforeAll(async () => {
    harness = await startHarness();
    receiver = new Receiver();
    await receiver.start();
    pool = new Pool({ connectionString: harness.database.url });
  });
  afterAll(async () => {
    await pool.end();
    await receiver.stop();
    await harness.stop();
  });

  const keysFile = () => harness.env.DSS_WEBHOOK_SECRET_KEYS_FILE;

  async function stored(id: string): Promise<StoredSecret> {
    const { rows } = await pool.query<StoredSecret>(
      `SELECT secret, secret_key_id, previous_secret, previous_secret_key_id
         FROM notifications.endpoints WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  async function restart() {
    await harness.stopService();
    await harness.start();
  }

  /** Publishes one diagram.created for the team and returns the request the receiver got for it. */
  async function deliveredFor(teamId: string) {
    const before = receiver.received.length;
    const [created] = everyEvent(teamId, randomUUID());
    await publish(harness.bus, created.subject, created.data);
    await eventually(async () => expect(receiver.received.length).toBeGreaterThan(before), 15_000);
    const request = receiver.received[receiver.received.length - 1];
    return { body: request.body, headers: request.headers as Record<string, string> };
  }

  async function register(teamId: string) {
    return harness.client.CreateWebhook({
      principal: ownerOf(teamId),
      url: receiver.url,
      events: ['diagram.created'],
    });
  }

  it('should store the secret encrypted under a key id and return it only at creation', async () => {
    const teamId = randomUUID();
    const webhook = await register(teamId);
    const row = await stored(webhook.id);
    expect(row.secret_key_id).toMatch(/^[0-9a-f]{16}$/);
    expect(row.secret).not.toContain(webhook.secret!.slice('whsec_'.length));
    expect(row.secret).not.toContain('whsec_');
    const listed = await harness.client.ListWebhooks({ principal: ownerOf(teamId) });
    expect(listed.webhooks).toHaveLength(1);
    expect(listed.webhooks[0]).not.toHaveProperty('secret');
    const delivered = await deliveredFor(teamId);
    expect(new Webhook(webhook.secret!).verify(delivered.body, delivered.headers)).toBeTruthy();
  });

  it('should encrypt secrets an earlier release stored in plain text at the next start, and sign with them', async () => {
    const teamId = randomUUID();
    const id = randomUUID();
    const secret = newSecret();
    const previous = newSecret();
    // A row as the release before the encryption wrote it: plain text, no key id.
    await pool.query(
      `INSERT INTO notifications.endpoints
         (id, team_id, url, events, secret, previous_secret, previous_secret_until, created_by_token_id)
       VALUES ($1, $2, $3, $4, $5, $6, now() + interval '1 hour', 'old-token')`,
      [id, teamId, receiver.url, ['diagram.created'], secret, previous],
    );
    await restart();
    const row = await stored(id);
    expect(row.secret_key_id).toMatch(/^[0-9a-f]{16}$/);
    expect(row.previous_secret_key_id).toBe(row.secret_key_id);
    expect(row.secret).not.toContain(secret.slice('whsec_'.length));
    expect(row.previous_secret).not.toContain(previous.slice('whsec_'.length));
    const delivered = await deliveredFor(teamId);
    for (const key of [secret, previous])
      expect(new Webhook(key).verify(delivered.body, delivered.headers)).toBeTruthy();
  });

  it('should re-encrypt with a new first key at start, after which the old key can be removed', async () => {
    const teamId = randomUUID();
    const webhook = await register(teamId);
    const before = await stored(webhook.id);
    const oldKey = readFileSync(keysFile(), 'utf8').trim();
    const newKey = `rotated-${randomUUID()}-${randomUUID()}`;
    writeFileSync(keysFile(), `${newKey}\n${oldKey}\n`);
    await restart();
    const rotated = await stored(webhook.id);
    expect(rotated.secret_key_id).toMatch(/^[0-9a-f]{16}$/);
    expect(rotated.secret_key_id).not.toBe(before.secret_key_id);
    // Nothing is left under the old key, so it can go.
    const { rows } = await pool.query(
      'SELECT count(*)::int AS n FROM notifications.endpoints WHERE secret_key_id = $1 OR previous_secret_key_id = $1',
      [before.secret_key_id],
    );
    expect(rows[0].n).toBe(0);
    writeFileSync(keysFile(), `${newKey}\n`);
    await restart();
    const delivered = await deliveredFor(teamId);
    expect(new Webhook(webhook.secret!).verify(delivered.body, delivered.headers)).toBeTruthy();
  });

  it('should refuse to start when a stored secret’s key is not configured, naming the key id', async () => {
    const teamId = randomUUID();
    const webhook = await register(teamId);
    const { secret_key_id: keyId } = await stored(webhook.id);
    const current = readFileSync(keysFile(), 'utf8');
    await harness.stopService();
    writeFileSync(keysFile(), `unrelated-${randomUUID()}-${randomUUID()}\n`);
    await expect(harness.start()).rejects.toThrow(keyId!);
    writeFileSync(keysFile(), current);
    await harness.start();
    const delivered = await deliveredFor(teamId);
    expect(new Webhook(webhook.secret!).verify(delivered.body, delivered.headers)).toBeTruthy();
  });
});
