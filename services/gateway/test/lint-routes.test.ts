// The lint routes through a real gateway in front of real services: a diagram's findings under the
// team's settings, a proposal's stored findings and its status counts, settings that only owners change,
// no cross-team reads. Every response is also checked against the published OpenAPI description.
import { startTestSystem, TestPeople, type TestSystem } from '@dss/system';
import { assertMatchesOpenApi } from '../../../e2e/support/openapi-validator';

// biome-ignore lint/suspicious/noExplicitAny: response bodies under test are read field by field
type Json = Record<string, any>;

describe('Lint routes (real gateway, real services)', () => {
  let system: TestSystem;
  let people: TestPeople;
  const token = { owner: '', editor: '', outsider: '' };
  let diagramUuid: string;

  async function call(bearer: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${system.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as Json;
    assertMatchesOpenApi(method, `/v1${path}`, response.status, response.headers, json);
    return { status: response.status, json };
  }

  beforeAll(async () => {
    system = await startTestSystem();
    people = new TestPeople(system.grpc.accounts);
    token.owner = (await people.member({ team: 'lintr', role: 'owner', write: true })).token;
    token.editor = (await people.member({ team: 'lintr', role: 'editor', write: true })).token;
    token.outsider = (await people.member({ team: 'lintr-other', role: 'owner', write: true })).token;
    const created = await call(token.editor, 'POST', '/diagrams', {
      name: 'Lint',
      driver: 'pgsql',
      schema: {
        strategy: 'merge',
        tables: [
          { name: 'users', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] },
          { name: 'Events', columns: [{ name: 'payload', type: 'text' }] },
        ],
      },
    });
    expect(created.status).toBe(201);
    diagramUuid = created.json.data.uuid;
  });
  afterAll(async () => {
    people?.close();
    await system?.stop();
  });

  it('When a diagram is linted, then each finding names its rule, severity, message and table', async () => {
    const { status, json } = await call(token.editor, 'GET', `/diagrams/${diagramUuid}/lint`);
    expect(status).toBe(200);
    expect(json.data).toEqual([
      {
        rule: 'table-without-primary-key',
        severity: 'error',
        table: 'Events',
        message: 'table "Events" has no primary key',
      },
      {
        rule: 'naming-convention',
        severity: 'warning',
        table: 'Events',
        message: 'table name "Events" is not snake_case',
      },
    ]);
    expect((await call(token.outsider, 'GET', `/diagrams/${diagramUuid}/lint`)).status).toBe(404);
  });

  it('When an owner changes the settings, then the diagram lint honours them; an editor is refused', async () => {
    expect((await call(token.editor, 'POST', '/lint-settings', { max_columns: 3 })).status).toBe(403);
    const bad = await call(token.owner, 'POST', '/lint-settings', { rules: { 'naming-convention': 'loud' } });
    expect(bad.status).toBe(422);
    expect(bad.json.error.errors).toEqual([{ path: 'rules.naming-convention', message: expect.any(String) }]);
    const saved = await call(token.owner, 'POST', '/lint-settings', {
      rules: { 'naming-convention': 'off' },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.data.settings.rules).toEqual({ 'naming-convention': 'off' });
    const read = await call(token.editor, 'GET', '/lint-settings');
    expect(read.json.data.updated_at).toEqual(expect.any(String));
    const lint = await call(token.editor, 'GET', `/diagrams/${diagramUuid}/lint`);
    expect(lint.json.data.map((finding: Json) => finding.rule)).toEqual(['table-without-primary-key']);
    expect((await call(token.outsider, 'GET', '/lint-settings')).json.data.updated_at).toBeNull();
  });

  it('When a proposal drops a column, then its status counts and its lint list agree', async () => {
    const proposed = await call(token.editor, 'POST', `/diagrams/${diagramUuid}/proposals`, {
      title: 'Tidy',
      message: 'drop the payload',
      schema: {
        strategy: 'merge',
        deletions: { columns: [{ table: 'Events', columns: ['payload'] }] },
        tables: [],
      },
    });
    expect(proposed.status).toBe(201);
    const uuid = proposed.json.data.uuid;
    const lint = await call(token.editor, 'GET', `/proposals/${uuid}/lint`);
    expect(lint.json.data).toEqual([
      {
        rule: 'table-without-primary-key',
        severity: 'error',
        table: 'Events',
        message: 'table "Events" has no primary key',
      },
      {
        rule: 'destructive-change',
        severity: 'warning',
        table: 'Events',
        column: 'payload',
        message: 'column "Events"."payload" is dropped, with its data',
      },
    ]);
    expect((await call(token.editor, 'GET', `/proposals/${uuid}`)).json.data.lint).toEqual({
      errors: 1,
      warnings: 1,
    });
    expect((await call(token.outsider, 'GET', `/proposals/${uuid}/lint`)).status).toBe(404);
  });

  it('When the rule list is read, then every rule has its documentation line', async () => {
    const { json } = await call(token.editor, 'GET', '/lint-rules');
    expect(json.data).toHaveLength(8);
    expect(json.data[0]).toEqual({
      id: 'table-without-primary-key',
      default_severity: 'error',
      documentation: expect.any(String),
    });
  });
});
