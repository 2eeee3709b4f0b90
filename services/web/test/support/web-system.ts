// The whole system for the web app's tests: startTestSystem with the web app on a port chosen up front, so
// DSS_APP_URL (and with it every review_url and the origin form posts are checked against) is the web
// app's real address. Plus people with passwords and tokens, REST calls through the gateway, and a
// cookie-keeping fetch that signs in like a browser.
// Under scripts/e2e-containers.sh (E2E_CONTAINERS_STACK names the stack it started) the same tests run
// against the web, gateway and accounts containers instead.
import { readFileSync } from 'node:fs';
import { freePort } from '@dss/platform/testing';
import { startTestSystem, type TeamRole, type TestMember, TestPeople, type TestSystem } from '@dss/system';

export const PASSWORD = 'correct horse battery staple';

export interface WebTestSystem {
  /** The embedded system; absent when the tests run against the containers. */
  system?: TestSystem;
  webUrl: string;
  apiUrl: string;
  /** The database of the diagrams and proposals (for tests that age a record). */
  databaseUrl: string;
  /** Teams, people and tokens (accounts gRPC); `people.accounts` for other account calls. */
  people: TestPeople;
  stop(): Promise<void>;
}

/**
 * Whether these tests run against the containers of scripts/e2e-containers.sh. Tests that need a system
 * configured for them (an SMTP server of the test's own, direct gRPC calls to a service) run only on the
 * system `npm test` starts for them.
 */
export const onContainerStack = Boolean(process.env.E2E_CONTAINERS_STACK);

/** The fields of scripts/e2e-containers.js's stack file these tests use. */
interface ContainerStackFile {
  appUrl: string;
  baseUrl: string;
  databaseUrl: string;
  components: { accounts: { ports: { grpc: number } } };
}

/** `extraEnv`: more variables for the embedded system (e.g. DSS_SMTP_URL). */
export async function startWebTestSystem(extraEnv: Record<string, string> = {}): Promise<WebTestSystem> {
  const stackFile = process.env.E2E_CONTAINERS_STACK;
  if (stackFile) {
    const stack = JSON.parse(readFileSync(stackFile, 'utf8')) as ContainerStackFile;
    const people = new TestPeople(`127.0.0.1:${stack.components.accounts.ports.grpc}`);
    return {
      webUrl: stack.appUrl,
      apiUrl: stack.baseUrl,
      databaseUrl: stack.databaseUrl,
      people,
      stop: async () => people.close(),
    };
  }
  const port = await freePort();
  const webUrl = `http://127.0.0.1:${port}`;
  const system = await startTestSystem({ ...extraEnv, DSS_WEB_PORT: String(port), DSS_APP_URL: webUrl });
  const people = new TestPeople(system.grpc.accounts);
  return {
    system,
    webUrl,
    apiUrl: system.apiUrl,
    databaseUrl: system.env.DATABASE_URL!,
    people,
    async stop() {
      people.close();
      await system.stop();
    },
  };
}

/** A person of `team` with the role, a password to sign in with, and a write token (REST calls). */
export function createPerson(
  web: WebTestSystem,
  team: string,
  role: TeamRole,
  name = `${role} of ${team}`,
): Promise<TestMember> {
  return web.people.member({ team, role, name, password: PASSWORD, write: true });
}

export async function api(
  web: WebTestSystem,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { data?: Record<string, unknown>; error?: Record<string, unknown> } }> {
  const response = await fetch(`${web.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

export async function createDiagram(web: WebTestSystem, person: TestMember, schema: unknown, name = 'Shop') {
  const created = await api(web, person.token, 'POST', '/diagrams', { name, driver: 'pgsql', schema });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  return created.body.data!.uuid as string;
}

/**
 * Creates a diagram from DDL through the API and waits (polling, up to 60 s) until its import is ready; a
 * failed import or one still importing then fails the test with the diagram's state.
 */
export async function importDdl(
  web: WebTestSystem,
  person: TestMember,
  name: string,
  ddl: string,
  driver = 'pgsql',
): Promise<string> {
  const created = await api(web, person.token, 'POST', '/diagrams', { name, driver, ddl });
  if (created.status !== 201 && created.status !== 202)
    throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const uuid = created.body.data!.uuid as string;
  let data = created.body.data!;
  for (let attempt = 0; data.status === 'importing' && attempt < 600; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    data = (await api(web, person.token, 'GET', `/diagrams/${uuid}`)).body.data!;
  }
  if (data.status !== 'ready') throw new Error(`${name} did not import: ${JSON.stringify(data)}`);
  return uuid;
}

/**
 * DDL of `tables` tables in a chain, each also referencing `accounts`: a schema with one busy table
 * (packages/diagram-svg, hub-copies.ts), referenced by all the others.
 */
export function busyChainDdl(tables: number): string {
  let ddl = 'CREATE TABLE accounts (id bigint PRIMARY KEY, name text);\n';
  for (let n = 1; n <= tables; n++)
    ddl += `CREATE TABLE t${n} (id bigint PRIMARY KEY, account_id bigint NOT NULL REFERENCES accounts (id)${n > 1 ? `, t${n - 1}_id bigint REFERENCES t${n - 1} (id)` : ''});\n`;
  return ddl;
}

export async function propose(web: WebTestSystem, person: TestMember, diagramUuid: string, proposal: object) {
  const created = await api(web, person.token, 'POST', `/diagrams/${diagramUuid}/proposals`, proposal);
  if (created.status !== 201) throw new Error(`propose failed: ${JSON.stringify(created.body)}`);
  return created.body.data as { uuid: string; review_url: string; expires_at: string };
}

/** A cookie-keeping HTTP client for the web app (redirects not followed, so tests see them). */
export class WebClient {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  async request(
    path: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin ??= this.baseUrl;
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { response, text: await response.text() };
  }

  /** The hidden `_csrf` value of the page at `path`. */
  async csrfToken(path: string): Promise<string> {
    const { text } = await this.request(path);
    const match = /name="_csrf" value="([^"]*)"/.exec(text);
    if (!match) throw new Error(`no CSRF field on ${path}`);
    return match[1]!;
  }

  async signIn(email: string, password = PASSWORD) {
    const csrf = await this.csrfToken('/sign-in');
    return this.request('/sign-in', { form: { _csrf: csrf, email, password, next: '/' } });
  }
}
