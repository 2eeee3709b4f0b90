// The web app over plain HTTP against the whole embedded system: session cookie flags, security headers,
// sign-in and sign-out, the open-redirect refusal, CSRF refusals, and the same 404 for what another team
// owns as for what does not exist.
import { createLogger, createMetrics, createPool, MemoryEventBus } from '@dss/platform';
import { type TestMember, twoTableShopPatch } from '@dss/system';
import { readWebConfig } from '../src/config';
import { startWebApp, type WebApp } from '../src/server';
import { MAX_FAILURES } from '../src/sign-in-throttle';
import { scratchMariadb } from '../../../packages/sql/test/real-db';
import {
  api,
  busyChainDdl,
  createDiagram,
  createPerson,
  importDdl,
  propose,
  startWebTestSystem,
  WebClient,
  type WebTestSystem,
} from './support/web-system';

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'";

// Whole-system tests on a shared 2-core machine: generous per-test time, no timing assertions.
jest.setTimeout(120_000);

describe('web app over HTTP (whole embedded system)', () => {
  let web: WebTestSystem;
  let editor: TestMember;
  let outsider: TestMember;
  let diagramUuid: string;
  let proposalUuid: string;

  beforeAll(async () => {
    web = await startWebTestSystem();
    await web.people.team('alpha');
    await web.people.team('beta');
    editor = await createPerson(web, 'alpha', 'editor');
    outsider = await createPerson(web, 'beta', 'owner');
    diagramUuid = await createDiagram(web, editor, twoTableShopPatch());
    proposalUuid = (
      await propose(web, editor, diagramUuid, {
        title: 'Add invoices',
        message: 'Adds an invoices table',
        schema: {
          strategy: 'additive',
          tables: [{ name: 'invoices', columns: [{ name: 'id', type: 'bigint' }] }],
        },
      })
    ).uuid;
  }, 120_000);

  afterAll(async () => {
    await web?.stop();
  });

  describe('sign-in', () => {
    it('sets an HttpOnly, SameSite=Lax session cookie on path / (not Secure over http) and lands on /', async () => {
      const client = new WebClient(web.webUrl);
      const { response } = await client.signIn(editor.email);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/');
      const cookie = response.headers.getSetCookie().find((line) => line.startsWith('dss_session='))!;
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      expect(cookie).toMatch(/; Path=\//i);
      expect(cookie).not.toMatch(/; Secure/i);
      const home = await client.request('/');
      expect(home.response.status).toBe(200);
      expect(home.text).toContain('Team alpha');
    });

    it('never suggests giving a password on the command line', async () => {
      const { response, text } = await new WebClient(web.webUrl).request('/sign-in');
      expect(response.status).toBe(200);
      expect(text).not.toContain('--password ');
      expect(text).toContain('user set-password');
    });

    it('answers a wrong password and an unknown email with the same generic message', async () => {
      const wrong = await new WebClient(web.webUrl).signIn(editor.email, 'not the password');
      const unknown = await new WebClient(web.webUrl).signIn('nobody@alpha.test', 'not the password');
      expect(wrong.response.status).toBe(401);
      expect(unknown.response.status).toBe(401);
      expect(wrong.text).toContain('Wrong email or password.');
      expect(unknown.text).toContain('Wrong email or password.');
      expect(wrong.response.headers.getSetCookie().some((line) => line.startsWith('dss_session='))).toBe(
        false,
      );
    });

    it('refuses a forged session cookie and sends the request to sign-in', async () => {
      const client = new WebClient(web.webUrl);
      client.setCookie('dss_session', 'A'.repeat(43) + '.forged');
      const { response } = await client.request('/');
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/sign-in?next=%2F');
    });

    it('ends the session on sign-out, so the old cookie no longer works', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const oldCookie = client.cookieHeader();
      const csrf = await client.csrfToken('/');
      const out = await client.request('/sign-out', { form: { _csrf: csrf } });
      expect(out.response.status).toBe(303);
      const replay = await fetch(`${web.webUrl}/`, { headers: { cookie: oldCookie }, redirect: 'manual' });
      expect(replay.status).toBe(303);
      expect(replay.headers.get('location')).toMatch(/^\/sign-in/);
    });
  });

  describe('redirects', () => {
    it('sends an anonymous page request to sign-in with the local path as next', async () => {
      const response = await fetch(`${web.webUrl}/diagrams/${diagramUuid}?a=1`, { redirect: 'manual' });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(
        `/sign-in?next=${encodeURIComponent(`/diagrams/${diagramUuid}?a=1`)}`,
      );
    });

    it.each(['https://evil.test/x', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)'])(
      'after sign-in, refuses next=%s and lands on / (no open redirect)',
      async (next) => {
        const client = new WebClient(web.webUrl);
        const csrf = await client.csrfToken(`/sign-in?next=${encodeURIComponent(next)}`);
        const { response } = await client.request('/sign-in', {
          form: { _csrf: csrf, email: editor.email, password: 'correct horse battery staple', next },
        });
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe('/');
      },
    );

    it('keeps a local next path after sign-in', async () => {
      const client = new WebClient(web.webUrl);
      const csrf = await client.csrfToken('/sign-in');
      const { response } = await client.request('/sign-in', {
        form: {
          _csrf: csrf,
          email: editor.email,
          password: 'correct horse battery staple',
          next: `/review/${proposalUuid}`,
        },
      });
      expect(response.headers.get('location')).toBe(`/review/${proposalUuid}`);
    });
  });

  describe('security headers', () => {
    it.each(['/sign-in', '/draw', '/assets/app.css', '/no-such-page'])('are set on %s', async (path) => {
      const response = await fetch(`${web.webUrl}${path}`, { redirect: 'manual' });
      expect(response.headers.get('content-security-policy')).toContain(CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
    });

    it('answers an unknown page with a 404 page of the app, without a stack trace', async () => {
      const response = await fetch(`${web.webUrl}/no-such-page`);
      const text = await response.text();
      expect(response.status).toBe(404);
      expect(text).toContain('Not found');
      expect(text).not.toMatch(/at .*\.(ts|js):\d+/);
    });

    it('lists a DDL import’s warnings on the diagram page, with the SQL’s text escaped', async () => {
      const ddl =
        'CREATE TABLE t (id int PRIMARY KEY, "<img src=x onerror=alert(1)>" text NOPE);\n' +
        "CREATE TABLE (broken '<script>alert(2)</script>';";
      const uuid = await importDdl(web, editor, 'Warned', ddl);
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const { response, text } = await client.request(`/diagrams/${uuid}`);
      expect(response.status).toBe(200);
      const section = /<details class="import-warnings"[\s\S]*?<\/details>/.exec(text)?.[0] ?? '';
      expect(section).toContain('skipped or changed 2 things');
      expect(section).toContain('line 1, column 73');
      expect(section).toContain('<code>clause_dropped</code>');
      expect(section).toContain('line 2, column 14');
      expect(section).toContain('<code>statement_skipped</code>');
      // The user's SQL is shown as text, never as markup.
      expect(section).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(section).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
      expect(section).not.toMatch(/<img|<script/);
      // A diagram without warnings shows no such section.
      const plain = await client.request(`/diagrams/${diagramUuid}`);
      expect(plain.text).not.toContain('import-warnings');
    });

    it('lets only this origin frame the embed view', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const { response, text } = await client.request(`/embed/${diagramUuid}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(text).toContain('<svg');
    });
  });

  describe('busy tables drawn again', () => {
    it('draws a table most tables reference again beside far ones on the diagram page and embed view, says so, and draws every table once on request and in the editor', async () => {
      // accounts is busy: referenced by 30 of 31 tables.
      const uuid = await importDdl(web, editor, 'Busy', busyChainDdl(30));
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const copiesIn = (text: string) =>
        [...text.matchAll(/<g class="dss-table dss-table-copy" data-table-copy="accounts"/g)].length;

      const page = await client.request(`/diagrams/${uuid}`);
      expect(page.response.status).toBe(200);
      const drawn = copiesIn(page.text);
      expect(drawn).toBeGreaterThan(0);
      // Still one data-table per table.
      expect([...page.text.matchAll(/ data-table="/g)]).toHaveLength(31);
      const note = /<p class="copies-note[^>]*>([\s\S]*?)<\/p>/.exec(page.text)?.[1] ?? '';
      expect(note).toContain(`accounts (${drawn} ${drawn === 1 ? 'copy' : 'copies'})`);
      expect(note).toContain(`href="/diagrams/${uuid}?copies=off"`);

      const once = await client.request(`/diagrams/${uuid}?copies=off`);
      expect(copiesIn(once.text)).toBe(0);
      expect(once.text).toContain('data-copies="off"');
      expect(once.text).toContain('Every table is drawn once.');

      // A version's page is read-only too.
      const version = await client.request(`/diagrams/${uuid}/versions/1`);
      expect(copiesIn(version.text)).toBe(drawn);
      expect(version.text).toContain(`href="/diagrams/${uuid}/versions/1?copies=off"`);
      expect(copiesIn((await client.request(`/diagrams/${uuid}/versions/1?copies=off`)).text)).toBe(0);

      const embed = await client.request(`/embed/${uuid}`);
      expect(copiesIn(embed.text)).toBe(drawn);
      // The editor changes tables where they are: it draws each one once, and its seeded routing is for that.
      const editorPage = await client.request(`/diagrams/${uuid}/edit`);
      expect(editorPage.response.status).toBe(200);
      expect(editorPage.text).toContain(' data-table="accounts"');
      expect(copiesIn(editorPage.text)).toBe(0);
      // A diagram without a busy table says nothing about copies.
      expect((await client.request(`/diagrams/${diagramUuid}`)).text).not.toContain('copies-note');
    });
  });

  describe('Export menu', () => {
    it('offers SQL for PostgreSQL (the diagram’s own driver, first), MySQL and SQL Server', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const { text } = await client.request(`/diagrams/${diagramUuid}`);
      const menu = /<details class="export-menu"[\s\S]*?<\/details>/.exec(text)?.[0] ?? '';
      const links = [...menu.matchAll(/<a href="([^"]*)" download>([^<]*)<\/a>/g)].map((match) => [
        match[1],
        match[2],
      ]);
      expect(links.slice(0, 3)).toEqual([
        [`/diagrams/${diagramUuid}/export/sql?driver=pgsql`, 'SQL (PostgreSQL)'],
        [`/diagrams/${diagramUuid}/export/sql?driver=mysql`, 'SQL (MySQL)'],
        [`/diagrams/${diagramUuid}/export/sql?driver=sqlsrv`, 'SQL (SQL Server)'],
      ]);
      expect(links.slice(3).map(([, name]) => name)).toEqual(['DBML', 'Mermaid', 'SVG image', 'PNG image']);
    });

    it('answers /export/sql?driver=mysql of a PostgreSQL diagram with a MySQL script named for MySQL that MariaDB loads', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const { response, text } = await client.request(`/diagrams/${diagramUuid}/export/sql?driver=mysql`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="shop-v\d+\.mysql\.sql"$/,
      );
      expect(text.startsWith('-- Converted from PostgreSQL to MySQL: ')).toBe(true);
      expect(text).toContain('CREATE TABLE `customers` (');
      const database = await scratchMariadb();
      try {
        await database.run(text);
        expect(Object.keys((await database.shape()).tables).sort()).toEqual(['customers', 'orders']);
      } finally {
        await database.drop();
      }
      // The diagram's own driver keeps plain `sql`; a driver that does not exist is a 404 like other bad params.
      const own = await client.request(`/diagrams/${diagramUuid}/export/sql`);
      expect(own.response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="shop-v\d+\.sql"$/,
      );
      expect(own.text).toContain('CREATE TABLE "customers" (');
      expect(
        (await client.request(`/diagrams/${diagramUuid}/export/sql?driver=oracle`)).response.status,
      ).toBe(404);
      expect(
        (await client.request(`/diagrams/${diagramUuid}/export/dbml?driver=mysql`)).response.status,
      ).toBe(404);
    });
  });

  describe('CSRF', () => {
    it('refuses a form post without the token with 403 and changes nothing', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const { response, text } = await client.request(`/review/${proposalUuid}/decline`, {
        form: { reason: 'no' },
      });
      expect(response.status).toBe(403);
      expect(text).toContain('Not allowed');
      const status = await api(web, editor.token, 'GET', `/proposals/${proposalUuid}`);
      expect(status.body.data!.state).toBe('pending');
    });

    it('refuses a form post with the right token from a foreign origin with 403', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const csrf = await client.csrfToken(`/review/${proposalUuid}`);
      const foreign = await client.request(`/review/${proposalUuid}/decline`, {
        form: { _csrf: csrf, reason: 'no' },
        headers: { origin: 'https://evil.test' },
      });
      expect(foreign.response.status).toBe(403);
      const status = await api(web, editor.token, 'GET', `/proposals/${proposalUuid}`);
      expect(status.body.data!.state).toBe('pending');
    });

    it('refuses a token of another session', async () => {
      const first = new WebClient(web.webUrl);
      await first.signIn(editor.email);
      const second = new WebClient(web.webUrl);
      await second.signIn(editor.email);
      const csrfOfFirst = await first.csrfToken('/');
      const { response } = await second.request('/sign-out', { form: { _csrf: csrfOfFirst } });
      expect(response.status).toBe(403);
    });
  });

  describe('visibility across teams', () => {
    it('answers another team’s diagram and proposal with the same 404 as unknown ones', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(outsider.email);
      const pages = [
        `/diagrams/${diagramUuid}`,
        `/embed/${diagramUuid}`,
        `/review/${proposalUuid}`,
        '/diagrams/00000000-0000-4000-8000-000000000000',
        '/review/00000000-0000-4000-8000-000000000000',
        '/review/not-a-uuid',
      ];
      const answers = await Promise.all(pages.map((path) => client.request(path)));
      for (const answer of answers) expect(answer.response.status).toBe(404);
      // Each answer writes its CSRF token masked anew (signing.ts); apart from that the pages are one.
      const bodies = new Set(
        answers.map((answer) => answer.text.replace(/name="_csrf" value="[^"]*"/g, 'name="_csrf" value=""')),
      );
      expect(answers.some((answer) => /name="_csrf" value="[^"]+"/.test(answer.text))).toBe(true);
      expect(bodies.size).toBe(1);
      expect([...bodies][0]).not.toContain('Add invoices');
    });

    it('refuses a review action on another team’s proposal with 404 and changes nothing', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(outsider.email);
      const csrf = await client.csrfToken('/');
      const { response } = await client.request(`/review/${proposalUuid}/apply`, { form: { _csrf: csrf } });
      expect(response.status).toBe(404);
      const status = await api(web, editor.token, 'GET', `/proposals/${proposalUuid}`);
      expect(status.body.data!.state).toBe('pending');
    });
  });

  describe('a proposal that no longer fits', () => {
    it('shows the reasons instead of the Apply button, refuses Apply with them, and stays pending', async () => {
      const shopUuid = await createDiagram(web, editor, twoTableShopPatch(), 'Shrinking shop');
      const stale = await propose(web, editor, shopUuid, {
        title: 'Rename orders',
        message: 'Renames orders to purchases',
        schema: {
          strategy: 'merge',
          tables: [
            {
              name: 'purchases',
              old_name: 'orders',
              columns: [{ name: 'id', type: 'bigint', is_primary_key: true }],
            },
          ],
        },
      });
      const removal = await propose(web, editor, shopUuid, {
        title: 'Drop orders',
        message: 'Orders move elsewhere',
        schema: { strategy: 'merge', tables: [], deletions: { tables: ['orders'] } },
      });
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const csrf = await client.csrfToken(`/review/${removal.uuid}`);
      expect(
        (await client.request(`/review/${removal.uuid}/apply`, { form: { _csrf: csrf } })).response.status,
      ).toBe(303);

      const page = await client.request(`/review/${stale.uuid}`);
      expect(page.text).toContain('no longer fits');
      expect(page.text).not.toContain('Apply changes');

      const applied = await client.request(`/review/${stale.uuid}/apply`, { form: { _csrf: csrf } });
      // Its table was dropped since the version it was made on: a conflict (issue 27: a proposal means one thing).
      expect(applied.response.status).toBe(409);
      expect(applied.text).toContain('id="review-notice"');
      expect(applied.text).toMatch(/orders/);
      const status = await api(web, editor.token, 'GET', `/proposals/${stale.uuid}`);
      expect(status.body.data!.state).toBe('pending');
    });

    it('refuses Apply with 409 and the notice while the diagram is importing, and the proposal stays pending', async () => {
      const importingUuid = await createDiagram(web, editor, twoTableShopPatch(), 'Importing shop');
      const pending = await propose(web, editor, importingUuid, {
        title: 'Add refunds',
        message: 'm',
        schema: {
          strategy: 'additive',
          tables: [{ name: 'refunds', columns: [{ name: 'id', type: 'bigint' }] }],
        },
      });
      // No DDL import runs here, so the state is set directly (test only; the API never writes it).
      const db = createPool(web.system!.env.DATABASE_URL!, { max: 1 });
      try {
        await db.query("UPDATE diagrams.diagrams SET status = 'importing' WHERE uuid = $1", [importingUuid]);
      } finally {
        await db.end();
      }
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const csrf = await client.csrfToken(`/review/${pending.uuid}`);
      const applied = await client.request(`/review/${pending.uuid}/apply`, { form: { _csrf: csrf } });
      expect(applied.response.status).toBe(409);
      expect(applied.text).toContain('id="review-notice"');
      const status = await api(web, editor.token, 'GET', `/proposals/${pending.uuid}`);
      expect(status.body.data!.state).toBe('pending');
    });

    it('refuses a decline reason over 500 characters on the page, and the proposal stays pending', async () => {
      const pending = await propose(web, editor, diagramUuid, {
        title: 'Long reason',
        message: 'm',
        schema: {
          strategy: 'additive',
          tables: [{ name: 'long_reason', columns: [{ name: 'id', type: 'bigint' }] }],
        },
      });
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const csrf = await client.csrfToken(`/review/${pending.uuid}`);
      const declined = await client.request(`/review/${pending.uuid}/decline`, {
        form: { _csrf: csrf, reason: 'x'.repeat(501) },
      });
      expect(declined.response.status).toBe(400);
      expect(declined.text).toContain('at most 500 characters');
      const status = await api(web, editor.token, 'GET', `/proposals/${pending.uuid}`);
      expect(status.body.data!.state).toBe('pending');
    });
  });

  describe('API token settings', () => {
    it('creates a write token shown once, lists it with its last use, and revokes it', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      const csrf = await client.csrfToken('/settings/tokens');
      const created = await client.request('/settings/tokens', {
        form: { _csrf: csrf, name: 'laptop', team: 'alpha', expires: '90d', write: 'on' },
      });
      expect(created.response.status).toBe(200);
      expect(created.response.headers.get('cache-control')).toBe('no-store');
      const token = /<pre class="secret" id="new-token">([^<]+)<\/pre>/.exec(created.text)![1]!;
      expect((await api(web, token, 'GET', '/diagrams')).status).toBe(200);

      const listing = await client.request('/settings/tokens');
      expect(listing.text).toContain('laptop');
      expect(listing.text).toContain('read and write');
      expect(listing.text).not.toContain(token);
      const id = /<tr data-token="([^"]+)">\s*<td>laptop<\/td>/.exec(listing.text)![1]!;

      const revoked = await client.request(`/settings/tokens/${id}/revoke`, { form: { _csrf: csrf } });
      expect(revoked.response.status).toBe(303);
      expect(
        (await web.people.accounts.ListTokens({ team_slug: 'alpha', user_email: editor.email })).tokens,
      ).toContainEqual(expect.objectContaining({ id, revoked_at: expect.any(String) }));
      // The gateway drops its cached check when the revocation event arrives (through the outbox relay).
      await waitUntil(async () => (await api(web, token, 'GET', '/diagrams')).status === 401);
    });

    it('refuses to revoke another person’s token with 404', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(outsider.email);
      const csrf = await client.csrfToken('/settings/tokens');
      const others = await web.people.accounts.ListTokens({ team_slug: 'alpha', user_email: editor.email });
      const id = others.tokens.find((record) => !record.revoked_at)!.id;
      const refused = await client.request(`/settings/tokens/${id}/revoke`, { form: { _csrf: csrf } });
      expect(refused.response.status).toBe(404);
      expect((await api(web, editor.token, 'GET', '/diagrams')).status).toBe(200);
    });
  });

  describe('metrics', () => {
    it('counts page requests by route template, not by path', async () => {
      const client = new WebClient(web.webUrl);
      await client.signIn(editor.email);
      await client.request(`/review/${proposalUuid}`);
      const metrics = await (await fetch(`http://127.0.0.1:${web.system!.adminPort}/metrics`)).text();
      const line = metrics
        .split('\n')
        .find((text) => text.startsWith('dss_http_requests_total') && text.includes('route="/review/:uuid"'));
      expect(line).toContain('service="web"');
      expect(metrics).not.toContain(`route="/review/${proposalUuid}"`);
    });
  });

  describe('over https (DSS_APP_URL https://…)', () => {
    let secure: WebApp;
    let secureUrl: string;

    beforeAll(async () => {
      const config = readWebConfig({
        ...web.system!.env,
        DSS_WEB_PORT: '0',
        DSS_WEB_HOST: '127.0.0.1',
        DSS_APP_URL: 'https://app.example.test',
        DSS_ACCOUNTS_GRPC_ADDR: web.system!.grpc.accounts,
        DSS_DIAGRAMS_GRPC_ADDR: web.system!.grpc.diagrams,
        DSS_PROPOSALS_GRPC_ADDR: web.system!.grpc.proposals,
        DSS_NOTIFICATIONS_GRPC_ADDR: web.system!.grpc.notifications,
        DSS_IMPORTER_GRPC_ADDR: web.system!.grpc.importer!,
      });
      secure = await startWebApp({
        config,
        logger: createLogger('web', { level: 'silent' }),
        metrics: createMetrics('web', { processMetrics: false }),
        bus: new MemoryEventBus({ logger: createLogger('bus', { level: 'silent' }) }),
      });
      secureUrl = `http://127.0.0.1:${secure.port}`;
    });
    afterAll(async () => {
      await secure?.stop();
    });

    it('names the cookies __Host-… and marks them Secure', async () => {
      const response = await fetch(`${secureUrl}/sign-in`);
      const cookie = response.headers.getSetCookie().find((line) => line.startsWith('__Host-dss_signin='))!;
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/; Path=\//i);
      expect(cookie).not.toMatch(/Domain=/i);
    });

    it('throttles an address after repeated failed sign-ins, even with the right password then', async () => {
      const client = new WebClient(secureUrl);
      const csrf = await client.csrfToken('/sign-in');
      const attempt = (password: string) =>
        client.request('/sign-in', {
          form: { _csrf: csrf, email: editor.email, password, next: '/' },
          headers: { origin: 'https://app.example.test' },
        });
      for (let failure = 0; failure < MAX_FAILURES; failure += 1)
        expect((await attempt('wrong password')).response.status).toBe(401);
      const blocked = await attempt('correct horse battery staple');
      expect(blocked.response.status).toBe(429);
      expect(blocked.response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(blocked.text).toContain('Too many failed sign-ins');
    });
  });
});
