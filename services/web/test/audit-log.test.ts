// The audit log end to end: each group of actions is performed the way people perform it (web app forms,
// the REST API, the operator's gRPC calls) and its entry is read back over GET /v1/audit-events, with
// actor, target, team, request id and IP. Only the team's owners read it; the application's database
// role cannot change or remove an entry; cursor paging and filters.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createServiceClient, type ServiceClient } from '@dss/platform';
import { type TestMember, twoTableShopPatch } from '@dss/system';
import { Client } from 'pg';
import { assertMatchesOpenApi } from '../../../e2e/support/openapi-validator';
import {
  api,
  createDiagram,
  createPerson,
  onContainerStack,
  PASSWORD,
  propose,
  startWebTestSystem,
  WebClient,
  type WebTestSystem,
} from './support/web-system';

jest.setTimeout(180_000);

interface AuditEvent {
  id: string;
  action: string;
  actor: { kind: string; id: string | null; user: { id: string; email: string | null } | null };
  target: { kind: string; id: string | null; name: string | null };
  team: { id: string; slug: string; name: string } | null;
  created_at: string;
  request_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

interface AuditPage {
  data: AuditEvent[];
  meta: { next_cursor: string | null; has_more: boolean };
}

const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

// Direct gRPC calls need the system these tests start.
const describeHere = onContainerStack ? describe.skip : describe;

describeHere('audit log', () => {
  let web: WebTestSystem;
  let owner: TestMember;
  let editor: TestMember;
  let outsider: TestMember;
  let accounts: ServiceClient<'Accounts'>;
  let diagrams: ServiceClient<'Diagrams'>;
  const clients = new Map<string, WebClient>();

  const as = async (person: { email: string }) => {
    let client = clients.get(person.email);
    if (!client) {
      client = new WebClient(web.webUrl);
      expect((await client.signIn(person.email)).response.status).toBe(303);
      clients.set(person.email, client);
    }
    return client;
  };
  const post = async (person: TestMember, path: string, fields: Record<string, string> = {}) => {
    const client = await as(person);
    const csrf = await client.csrfToken('/');
    return client.request(path, { form: { _csrf: csrf, ...fields } });
  };

  async function readAudit(token: string, query: Record<string, string> = {}) {
    const search = new URLSearchParams(query).toString();
    const path = `/audit-events${search ? `?${search}` : ''}`;
    const response = await fetch(`${web.apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as AuditPage & { error?: { code: string; errors?: unknown } };
    assertMatchesOpenApi('GET', `/v1${path}`, response.status, response.headers, body);
    return { status: response.status, body };
  }

  /** The entry of `action` about `targetId`, waiting for it: entries of other services arrive through the bus. */
  async function entry(action: string, targetId: string | null, token = owner.token): Promise<AuditEvent> {
    const query: Record<string, string> = { action, limit: '100' };
    if (targetId) query.target = targetId;
    for (let attempt = 0; attempt < 150; attempt += 1) {
      const { status, body } = await readAudit(token, query);
      expect(status).toBe(200);
      if (body.data.length > 0) return body.data[0]!;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${action} entry about ${targetId}`);
  }

  async function principalOf(person: TestMember) {
    return accounts.Authenticate({ token: person.token });
  }

  beforeAll(async () => {
    web = await startWebTestSystem();
    await web.people.team('audit');
    await web.people.team('audit-far');
    owner = await createPerson(web, 'audit', 'owner');
    editor = await createPerson(web, 'audit', 'editor');
    outsider = await createPerson(web, 'audit-far', 'owner');
    accounts = web.people.accounts;
    diagrams = createServiceClient('Diagrams', web.system!.grpc.diagrams);
  }, 180_000);
  afterAll(async () => {
    diagrams?.close();
    await web?.stop();
  });

  describe('sign-in and sign-out', () => {
    it('should record a sign-in, a failed sign-in and a sign-out with the client address', async () => {
      const person = await createPerson(web, 'audit', 'viewer');
      const client = new WebClient(web.webUrl);
      expect((await client.signIn(person.email, 'not the password')).response.status).not.toBe(303);
      expect((await client.signIn(person.email)).response.status).toBe(303);
      const csrf = await client.csrfToken('/');
      await client.request('/sign-out', { form: { _csrf: csrf } });

      const failed = await entry('user.sign_in_failed', person.userId);
      expect(failed.actor).toEqual({ kind: 'anonymous', id: null, user: null });
      expect(failed.target).toEqual({ kind: 'user', id: person.userId, name: person.email });
      expect(failed.details).toEqual({ method: 'password', reason: 'wrong_password' });
      expect(failed.ip).toMatch(LOOPBACK);
      const signedIn = await entry('user.signed_in', person.userId);
      expect(signedIn.actor).toMatchObject({ kind: 'user', id: person.userId });
      expect(signedIn.team?.slug).toBe('audit');
      expect(signedIn.ip).toMatch(LOOPBACK);
      expect(signedIn.request_id).toEqual(expect.any(String));
      const signedOut = await entry('user.signed_out', person.userId);
      expect(signedOut.actor).toMatchObject({ kind: 'user', id: person.userId });
    });

    it('should record a failed sign-in of an unknown email without a team, which no owner reads', async () => {
      const client = new WebClient(web.webUrl);
      const email = `nobody-${Date.now()}@audit.test`;
      await client.signIn(email, 'whatever-it-is');
      let found: Awaited<ReturnType<typeof accounts.ListAuditEvents>>['events'][number] | undefined;
      for (let attempt = 0; attempt < 150 && !found; attempt += 1) {
        const operatorView = await accounts.ListAuditEvents({
          team_id: '',
          actor: '',
          action: 'user.sign_in_failed',
          target: '',
          since: '',
          until: '',
          cursor: '',
          limit: 100,
        });
        found = operatorView.events.find((event) => event.target?.name === email);
        if (!found) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(found).toMatchObject({ team_id: '', actor: { kind: 'anonymous' } });
      const ownerView = await readAudit(owner.token, { action: 'user.sign_in_failed', limit: '100' });
      expect(ownerView.body.data.some((event) => event.target.name === email)).toBe(false);
    });
  });

  describe('single sign-on refusals and SSO-only teams', () => {
    it('should give owners the single sign-ons refused for their members, as the web app reports them, and no one else', async () => {
      const person = await createPerson(web, 'audit', 'viewer');
      // What the SSO callback sends when the provider vouches for an unverified email (sso.test.ts drives it).
      await accounts.RecordSsoRefusal(
        { email: person.email, reason: 'email_unverified' },
        { metadata: { 'x-request-id': 'req-sso-refused', 'x-dss-client-ip': '203.0.113.7' } },
      );
      const failed = await entry('user.sign_in_failed', person.userId);
      expect(failed).toMatchObject({
        actor: { kind: 'anonymous', id: null, user: null },
        target: { kind: 'user', id: person.userId, name: person.email },
        team: { slug: 'audit' },
        request_id: 'req-sso-refused',
        ip: '203.0.113.7',
        details: { method: 'sso', reason: 'email_unverified' },
      });
      const outsiderView = await readAudit(outsider.token, { action: 'user.sign_in_failed', limit: '100' });
      expect(outsiderView.body.data.some((event) => event.target.id === person.userId)).toBe(false);
    });

    it('should record a token refused to a password session of an SSO-only team, and the setting with the sessions it ended', async () => {
      await web.people.team('audit-sso');
      const ssoOwner = await createPerson(web, 'audit-sso', 'owner');
      const session = await accounts.CreateSession({ user_id: ssoOwner.userId, method: 'password' });
      await accounts.SetTeamSsoOnly({ team_slug: 'audit-sso', sso_only: true, acting_session_id: '' });
      const ended = await entry('team.sso_only_changed', null, ssoOwner.token);
      expect(ended.details).toMatchObject({ sso_only: true, ended_sessions: expect.any(Number) });
      expect(ended.details.ended_sessions).toBeGreaterThanOrEqual(1);
      const kept = await accounts.CreateSession({ user_id: ssoOwner.userId, method: 'invitation' });
      await expect(
        accounts.IssueToken({
          team_slug: 'audit-sso',
          user_email: ssoOwner.email,
          name: 'from a password session',
          write: false,
          expires_in: '',
          expires_at: '',
          session_id: kept.session_id,
        }),
      ).rejects.toMatchObject({ code: 'forbidden' });
      await expect(accounts.GetSession({ session_id: session.session_id })).rejects.toMatchObject({
        code: 'unauthenticated',
      });
      const refused = await entry('token.create_refused', ssoOwner.userId, ssoOwner.token);
      expect(refused).toMatchObject({
        actor: { kind: 'user', id: ssoOwner.userId },
        team: { slug: 'audit-sso' },
        details: { reason: 'sso_required', session_method: 'invitation' },
      });
      // The owner's token from before the setting still reads the audit log: existing tokens keep working.
      expect((await readAudit(ssoOwner.token, { limit: '1' })).status).toBe(200);
    });
  });

  describe('tokens, members and password resets', () => {
    it('should record a token created and revoked', async () => {
      const issued = await accounts.IssueToken({
        team_slug: 'audit',
        user_email: editor.email,
        name: 'ci <token>',
        write: false,
        expires_in: '30d',
        expires_at: '',
      });
      await accounts.RevokeToken({ id: issued.record!.id, user_id: editor.userId });
      const created = await entry('token.created', issued.record!.id);
      expect(created.target).toEqual({ kind: 'token', id: issued.record!.id, name: 'ci <token>' });
      expect(created.actor).toMatchObject({ kind: 'user', id: editor.userId });
      expect(JSON.stringify(created)).not.toContain(issued.token);
      const revoked = await entry('token.revoked', issued.record!.id);
      expect(revoked.actor.user?.email).toBe(editor.email);
    });

    it('should record a member invited, joined, role changed and removed', async () => {
      const email = `invited-${Date.now()}@audit.test`;
      const invitation = await accounts.CreateInvitation({
        team_slug: 'audit',
        email,
        role: 'viewer',
        invited_by_user_id: owner.userId,
      });
      const membership = await accounts.AcceptInvitation({
        secret: invitation.secret,
        password: PASSWORD,
        name: 'Invited',
        user_id: '',
      });
      await accounts.SetMemberRole({ team_slug: 'audit', user_email: email, role: 'editor' });
      await accounts.RemoveMember({ team_slug: 'audit', user_email: email });

      const invited = await entry('member.invited', invitation.invitation!.id);
      expect(invited).toMatchObject({
        actor: { kind: 'user', id: owner.userId },
        target: { kind: 'invitation', name: email },
        details: { role: 'viewer' },
      });
      const joined = await entry('member.joined', membership.user_id);
      expect(joined.actor).toMatchObject({ kind: 'user', id: membership.user_id });
      const changed = await entry('member.role_changed', membership.user_id);
      expect(changed.details).toEqual({ from: 'viewer', to: 'editor' });
      const removed = await entry('member.removed', membership.user_id);
      expect(removed.details).toMatchObject({ role: 'editor' });
    });

    it('should record a password reset requested and completed', async () => {
      const person = await createPerson(web, 'audit', 'viewer');
      const ticket = await accounts.RequestPasswordReset({ email: person.email });
      await accounts.ResetPassword({ secret: ticket.secret, password: 'a new long password' });
      const requested = await entry('password_reset.requested', person.userId);
      expect(requested.details).toEqual({ link_sent: true });
      expect(requested.actor.kind).toBe('anonymous');
      const completed = await entry('password_reset.completed', person.userId);
      expect(completed.actor).toMatchObject({ kind: 'user', id: person.userId });
    });
  });

  describe('diagrams, versions and share links', () => {
    it('should record a diagram created through the API with the token, request id and address', async () => {
      const response = await fetch(`${web.apiUrl}/diagrams`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${editor.token}`,
          'content-type': 'application/json',
          'x-request-id': 'audit-test-create-1',
        },
        body: JSON.stringify({ name: 'Audited <shop>', driver: 'pgsql', schema: twoTableShopPatch() }),
      });
      expect(response.status).toBe(201);
      const uuid = ((await response.json()) as { data: { uuid: string } }).data.uuid;
      const created = await entry('diagram.created', uuid);
      const tokenId = (await principalOf(editor)).token_id;
      expect(created).toMatchObject({
        actor: { kind: 'token', id: tokenId, user: { id: editor.userId, email: editor.email } },
        target: { kind: 'diagram', id: uuid, name: 'Audited <shop>' },
        team: { slug: 'audit', name: 'Team audit' },
        request_id: 'audit-test-create-1',
      });
      expect(created.ip).toMatch(LOOPBACK);
    });

    it('should record a diagram renamed, duplicated, deleted, restored and purged', async () => {
      const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Lifecycle');
      expect((await api(web, editor.token, 'PATCH', `/diagrams/${uuid}`, { name: 'Renamed' })).status).toBe(
        200,
      );
      const copy = await api(web, editor.token, 'POST', `/diagrams/${uuid}/duplicate`, {});
      const copyUuid = (copy.body.data as { uuid?: string; diagram?: { uuid: string } }).uuid;
      expect((await post(editor, `/diagrams/${uuid}/delete`)).response.status).toBe(303);
      const teamId = (await principalOf(owner)).team_id;
      expect((await post(owner, `/trash/${uuid}/restore`, { team_id: teamId })).response.status).toBe(303);
      expect((await post(editor, `/diagrams/${uuid}/delete`)).response.status).toBe(303);
      await diagrams.PurgeDiagram({ principal: await principalOf(owner), uuid });

      expect((await entry('diagram.renamed', uuid)).details).toMatchObject({ previous_name: 'Lifecycle' });
      const duplicated = await entry('diagram.duplicated', copyUuid ?? null);
      expect(duplicated.details).toEqual({ source_uuid: uuid });
      const deleted = await entry('diagram.deleted', uuid);
      expect(deleted.actor).toMatchObject({ kind: 'user', id: editor.userId });
      expect(deleted.ip).toMatch(LOOPBACK);
      expect((await entry('diagram.restored', uuid)).actor).toMatchObject({ kind: 'user', id: owner.userId });
      const purged = await entry('diagram.purged', uuid);
      expect(purged.target).toEqual({ kind: 'diagram', id: uuid, name: 'Renamed' });
    });

    it('should record a version labelled and restored, and a share link created and revoked', async () => {
      const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Versions');
      await api(web, editor.token, 'PATCH', `/diagrams/${uuid}/versions/1`, { label: 'first' });
      expect((await post(editor, `/diagrams/${uuid}/versions/1/restore`)).response.status).toBe(303);
      const principal = await principalOf(editor);
      const link = await diagrams.CreateShareLink({ principal, uuid, version_number: 0, expires_at: '' });
      await diagrams.RevokeShareLink({ principal, uuid, link_uuid: link.link!.uuid });

      expect((await entry('version.labelled', uuid)).details).toEqual({ version: 1, label: 'first' });
      expect((await entry('version.restored', uuid)).details).toMatchObject({ restored_version: 1 });
      const shared = await entry('share_link.created', link.link!.uuid);
      expect(shared.target).toEqual({ kind: 'share_link', id: link.link!.uuid, name: 'Versions' });
      expect(JSON.stringify(shared)).not.toContain(link.token);
      await entry('share_link.revoked', link.link!.uuid);
    });

    it('should record one entry per editing session, not one per save', async () => {
      const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Edited');
      const client = await as(editor);
      const csrf = await client.csrfToken('/');
      for (const column of ['note', 'memo']) {
        const saved = await fetch(`${web.webUrl}/diagrams/${uuid}/edits`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-csrf-token': csrf,
            origin: web.webUrl,
            cookie: client.cookieHeader(),
          },
          body: JSON.stringify({
            patch: {
              strategy: 'merge',
              tables: [{ name: 'customers', columns: [{ name: column, type: 'text', is_nullable: true }] }],
            },
          }),
        });
        expect(saved.status).toBe(200);
      }
      const session = await entry('editor_session.started', uuid);
      expect(session.actor).toMatchObject({ kind: 'user', id: editor.userId });
      const all = await readAudit(owner.token, { action: 'editor_session.started', target: uuid });
      expect(all.body.data).toHaveLength(1);
    });
  });

  describe('proposals, webhooks and settings', () => {
    it('should record a proposal created, changes requested, revised, applied and another declined', async () => {
      const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Reviewed');
      const patch = {
        strategy: 'additive',
        tables: [{ name: 'invoices', columns: [{ name: 'id', type: 'integer', is_primary_key: true }] }],
      };
      const proposal = await propose(web, editor, uuid, { schema: patch, title: 'Invoices', message: 'why' });
      expect(
        (await post(owner, `/review/${proposal.uuid}/request-changes`, { message: 'name it bills' })).response
          .status,
      ).toBe(303);
      const revised = await api(web, editor.token, 'POST', `/proposals/${proposal.uuid}/revisions`, {
        schema: { ...patch, tables: [{ ...patch.tables[0], name: 'bills' }] },
        message: 'renamed',
      });
      expect([revised.status, revised.body.error]).toEqual([201, undefined]);
      expect((await post(owner, `/review/${proposal.uuid}/apply`)).response.status).toBe(303);
      const other = await propose(web, editor, uuid, { schema: patch, title: 'Again', message: 'why' });
      await post(owner, `/review/${other.uuid}/decline`, { reason: 'done already' });

      const created = await entry('proposal.created', proposal.uuid);
      expect(created.target).toEqual({ kind: 'proposal', id: proposal.uuid, name: 'Invoices' });
      expect(created.actor).toMatchObject({ kind: 'token', user: { id: editor.userId } });
      expect((await entry('proposal.changes_requested', proposal.uuid)).actor).toMatchObject({
        kind: 'user',
        id: owner.userId,
      });
      expect((await entry('proposal.revised', proposal.uuid)).details).toMatchObject({ revision: 2 });
      const applied = await entry('proposal.applied', proposal.uuid);
      expect(applied.actor).toMatchObject({ kind: 'user', id: owner.userId });
      expect(applied.details).toMatchObject({ diagram_uuid: uuid, version_uuid: expect.any(String) });
      expect(applied.ip).toMatch(LOOPBACK);
      await entry('proposal.declined', other.uuid);
    });

    it('should record a webhook created, secret rotated and deleted, and lint settings changed', async () => {
      const created = await api(web, owner.token, 'POST', '/webhooks', {
        url: 'http://127.0.0.1:9/hook?key=secret-of-receiver',
        events: ['proposal.applied'],
      });
      expect(created.status).toBe(201);
      const id = created.body.data!.id as string;
      await api(web, owner.token, 'POST', `/webhooks/${id}/rotate-secret`);
      await api(web, owner.token, 'DELETE', `/webhooks/${id}`);
      expect(
        (await api(web, owner.token, 'POST', '/lint-settings', { rules: { 'naming-convention': 'off' } }))
          .status,
      ).toBe(200);

      const webhook = await entry('webhook.created', id);
      expect(webhook.target).toEqual({ kind: 'webhook', id, name: 'http://127.0.0.1:9/hook' });
      expect(webhook.actor).toMatchObject({ kind: 'token', user: { id: owner.userId } });
      await entry('webhook.secret_rotated', id);
      await entry('webhook.deleted', id);
      const lint = await entry('lint_settings.changed', null);
      expect(lint.details).toMatchObject({ after: { rules: { 'naming-convention': 'off' } } });
    });
  });

  describe('who may read it', () => {
    it('should answer 403 forbidden to an editor and show another team’s owner none of this team’s entries', async () => {
      const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Private');
      await entry('diagram.created', uuid);
      const refused = await readAudit(editor.token);
      expect(refused.status).toBe(403);
      expect(refused.body.error?.code).toBe('forbidden');
      const far = await readAudit(outsider.token, { target: uuid });
      expect(far.body.data).toEqual([]);
      const farAll = await readAudit(outsider.token, { limit: '100' });
      expect(farAll.body.data.every((event) => event.team?.slug === 'audit-far')).toBe(true);
    });
  });

  describe('paging and filters', () => {
    it('should page with the cursor through every entry once, newest first', async () => {
      const everything: AuditEvent[] = [];
      let cursor: string | null = null;
      do {
        const query: Record<string, string> = { limit: '3' };
        if (cursor) query.cursor = cursor;
        const { status, body } = await readAudit(owner.token, query);
        expect(status).toBe(200);
        expect(body.data.length).toBeLessThanOrEqual(3);
        everything.push(...body.data);
        cursor = body.meta.has_more ? body.meta.next_cursor : null;
        if (!body.meta.has_more) expect(body.meta.next_cursor).toBeNull();
      } while (cursor);
      const single = await readAudit(owner.token, { limit: '100' });
      expect(everything.length).toBeGreaterThanOrEqual(Math.min(single.body.data.length, 100));
      expect(new Set(everything.map((event) => event.id)).size).toBe(everything.length);
      const times = everything.map((event) => event.created_at);
      expect(everything.length).toBeGreaterThan(10);
      expect(times[0]! >= times[times.length - 1]!).toBe(true);
    });

    it('should filter by actor, action group, target and time', async () => {
      const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Filtered');
      const created = await entry('diagram.created', uuid);
      const byActor = await readAudit(owner.token, { actor: editor.email, limit: '100' });
      expect(byActor.body.data.length).toBeGreaterThan(0);
      expect(byActor.body.data.every((event) => event.actor.user?.id === editor.userId)).toBe(true);
      const group = await readAudit(owner.token, { action: 'diagram', limit: '100' });
      expect(group.body.data.every((event) => event.action.startsWith('diagram.'))).toBe(true);
      expect((await readAudit(owner.token, { target: uuid })).body.data.map((event) => event.id)).toEqual([
        created.id,
      ]);
      const later = new Date(Date.parse(created.created_at) + 1).toISOString();
      expect((await readAudit(owner.token, { target: uuid, since: later })).body.data).toEqual([]);
      expect((await readAudit(owner.token, { target: uuid, until: later })).body.data).toHaveLength(1);
    });

    it('should answer 422 invalid_request naming a bad filter or cursor', async () => {
      for (const [name, value] of [
        ['since', 'yesterday'],
        ['until', '2026-13-40T00:00:00Z'],
        ['action', 'DROP TABLE'],
        ['actor', 'somebody'],
        ['actor', 'nul\u0000@example.test'],
        ['target', 'id\u0000'],
        ['cursor', 'not-a-cursor'],
        ['limit', '0'],
      ] as const) {
        const { status, body } = await readAudit(owner.token, { [name]: value });
        expect([name, status, body.error?.code]).toEqual([name, 422, 'invalid_request']);
        expect(body.error?.errors).toEqual([{ path: name, message: expect.any(String) }]);
      }
    });
  });

  describe('operator export', () => {
    it('should write the team’s entries as JSON lines with `dss audit export`', async () => {
      const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Exported');
      const created = await entry('diagram.created', uuid);
      const cli = path.resolve(__dirname, '../../../scripts/dss.js');
      const env = { ...process.env, DSS_ACCOUNTS_GRPC_ADDR: web.system!.grpc.accounts, LOG_LEVEL: 'silent' };
      const since = new Date(Date.parse(created.created_at) - 60_000).toISOString();
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [cli, 'audit', 'export', '--team', 'audit', '--since', since],
        { env, maxBuffer: 64 * 1024 * 1024 },
      );
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as AuditEvent);
      expect(lines.find((line) => line.id === created.id)).toEqual(created);
      expect(lines.every((line) => line.team?.slug === 'audit' && line.created_at >= since)).toBe(true);
      const refused = await promisify(execFile)(
        process.execPath,
        [cli, 'audit', 'export', '--since', 'soon'],
        {
          env,
        },
      ).catch((error: { code: number; stderr: string }) => error);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('since') });
    });
  });

  describe('append-only storage', () => {
    it('should refuse UPDATE, DELETE and TRUNCATE by the application’s role, and purge only past the retention', async () => {
      const database = new Client({ connectionString: web.databaseUrl });
      await database.connect();
      try {
        const uuid = await createDiagram(web, editor, twoTableShopPatch(), 'Kept');
        const kept = await entry('diagram.created', uuid);
        await expect(
          database.query(`UPDATE accounts.audit_events SET action = 'diagram.nothing' WHERE id = $1`, [
            kept.id,
          ]),
        ).rejects.toMatchObject({ code: '42501', message: expect.stringContaining('append-only') });
        await expect(
          database.query('DELETE FROM accounts.audit_events WHERE id = $1', [kept.id]),
        ).rejects.toMatchObject({ code: '42501' });
        await expect(database.query('TRUNCATE accounts.audit_events')).rejects.toMatchObject({
          code: '42501',
        });

        const old = '00000000-0000-4000-8000-00000000a0d1';
        await database.query(
          `INSERT INTO accounts.audit_events (id, action, actor_kind, target_kind, created_at)
           VALUES ($1, 'diagram.created', 'system', 'diagram', now() - interval '400 days')`,
          [old],
        );
        const { rows } = await database.query('SELECT accounts.purge_audit_events(365) AS removed');
        expect(rows[0].removed).toBe(1);
        const remaining = await database.query('SELECT id FROM accounts.audit_events WHERE id = ANY($1)', [
          [old, kept.id],
        ]);
        expect(remaining.rows.map((row) => row.id)).toEqual([kept.id]);
        // The purge's permission ended with its statement's transaction.
        await expect(
          database.query('DELETE FROM accounts.audit_events WHERE id = $1', [kept.id]),
        ).rejects.toMatchObject({ code: '42501' });
      } finally {
        await database.end();
      }
    });

    it('should give a separate application role that may only SELECT and INSERT no way to change entries but the purge', async () => {
      const admin = new Client({ connectionString: web.databaseUrl });
      await admin.connect();
      const role = `dss_audit_app_${process.pid}`;
      const url = new URL(web.databaseUrl);
      url.username = role;
      url.password = '';
      const app = new Client({ connectionString: url.toString() });
      try {
        await admin.query(`CREATE ROLE ${role} LOGIN`);
        await admin.query(`GRANT USAGE ON SCHEMA accounts TO ${role}`);
        await admin.query(`GRANT SELECT, INSERT ON accounts.audit_events TO ${role}`);
        await admin.query(`GRANT EXECUTE ON FUNCTION accounts.purge_audit_events(integer) TO ${role}`);
        await app.connect();
        const id = '00000000-0000-4000-8000-00000000a0d2';
        await app.query(
          `INSERT INTO accounts.audit_events (id, action, actor_kind, target_kind, created_at)
           VALUES ($1, 'diagram.created', 'system', 'diagram', now() - interval '400 days')`,
          [id],
        );
        await expect(
          app.query(`UPDATE accounts.audit_events SET target_name = 'x' WHERE id = $1`, [id]),
        ).rejects.toMatchObject({ code: '42501', message: expect.stringContaining('permission denied') });
        await expect(
          app.query('DELETE FROM accounts.audit_events WHERE id = $1', [id]),
        ).rejects.toMatchObject({
          code: '42501',
          message: expect.stringContaining('permission denied'),
        });
        // Even with the purge's flag set by hand, the role has no DELETE privilege.
        await app.query('BEGIN');
        await app.query(`SELECT set_config('dss.audit_purge', 'on', true)`);
        await expect(
          app.query('DELETE FROM accounts.audit_events WHERE id = $1', [id]),
        ).rejects.toMatchObject({
          code: '42501',
        });
        await app.query('ROLLBACK');
        expect((await app.query('SELECT accounts.purge_audit_events(365) AS removed')).rows[0].removed).toBe(
          1,
        );
      } finally {
        await app.end().catch(() => undefined);
        await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
        await admin.end();
      }
    });
  });
});
