import { eventually } from '@dss/platform/testing';
import { echoRoutes, startGatewayHarness } from './gateway-harness';

type Harness = Awaited<ReturnType<typeof startGatewayHarness>>;

describe('Gateway authentication (spec: Authentication, through real gRPC to accounts)', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startGatewayHarness({ routes: echoRoutes, env: { DSS_RATE_LIMIT_IP_PER_MIN: '10000' } });
  });
  afterAll(async () => {
    await harness.stop();
  });

  const get = (token?: string, headers: Record<string, string> = {}) =>
    fetch(`${harness.baseUrl}/v1/echo`, {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });

  async function expectError(response: Response, status: number, code: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.message).not.toMatch(/\n\s+at /);
  }

  it('answers a valid token with the data', async () => {
    const { token } = await harness.token({ team: 'acme', email: 'ana@acme.test' });
    const response = await get(token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { team: 'acme' } });
  });

  it('gives 401 unauthenticated when the token is missing', async () => {
    await expectError(await get(), 401, 'unauthenticated');
  });

  it('gives 401 unauthenticated for a malformed token and for a non-bearer scheme', async () => {
    await expectError(await get('garbage'), 401, 'unauthenticated');
    await expectError(await get(undefined, { authorization: 'Basic dXNlcjpwYXNz' }), 401, 'unauthenticated');
  });

  it('ignores session cookies: a cookie alone gives 401 unauthenticated', async () => {
    const { token } = await harness.token({ team: 'cookie', email: 'c@cookie.test' });
    await expectError(
      await get(undefined, { cookie: `session=${token}; token=${token}` }),
      401,
      'unauthenticated',
    );
  });

  it('gives 401 unauthenticated for an expired token', async () => {
    await harness.token({ team: 'expired', email: 'e@expired.test' });
    const issued = await harness.admin.IssueToken({
      team_slug: 'expired',
      user_email: 'e@expired.test',
      expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    await expectError(await get(issued.token), 401, 'unauthenticated');
  });

  it('gives 401 unauthenticated for a revoked token within 1 second of the revocation', async () => {
    const { token, id } = await harness.token({ team: 'revoke', email: 'r@revoke.test' });
    expect((await get(token)).status).toBe(200); // now cached by the gateway
    await harness.admin.RevokeToken({ id });
    const revokedAt = Date.now();
    let response = await get(token);
    while (response.status === 200 && Date.now() - revokedAt < 1000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      response = await get(token);
    }
    await expectError(response, 401, 'unauthenticated');
  });

  it('gives 401 invalid_token when the team no longer exists', async () => {
    const { token } = await harness.token({ team: 'deleted', email: 'd@deleted.test' });
    expect((await get(token)).status).toBe(200);
    await harness.admin.DeleteTeam({ slug: 'deleted' });
    await eventually(async () => expectError(await get(token), 401, 'invalid_token'), 2000);
  });

  it('gives 401 invalid_token when the user is no longer a member', async () => {
    const { token } = await harness.token({ team: 'former', email: 'f@former.test' });
    expect((await get(token)).status).toBe(200);
    await harness.admin.RemoveMember({ team_slug: 'former', user_email: 'f@former.test' });
    await eventually(async () => expectError(await get(token), 401, 'invalid_token'), 2000);
  });

  it('gives 403 plan_required when the team is not on a paid plan', async () => {
    const { token } = await harness.token({ team: 'freebie', email: 'f@freebie.test', plan: 'free' });
    await expectError(await get(token), 403, 'plan_required');
  });

  it('gives 403 insufficient_scope when a read-only token writes', async () => {
    const { token } = await harness.token({ team: 'readonly', email: 'r@readonly.test', write: false });
    const response = await fetch(`${harness.baseUrl}/v1/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    await expectError(response, 403, 'insufficient_scope');
  });

  describe('request bodies and routes', () => {
    let token: string;
    beforeAll(async () => {
      token = (await harness.token({ team: 'writer', email: 'w@writer.test', write: true })).token;
    });
    const post = (body: string, contentType = 'application/json') =>
      fetch(`${harness.baseUrl}/v1/echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body,
      });

    it('gives 400 invalid_request for a body that is not valid JSON', async () => {
      await expectError(await post('{"name": '), 400, 'invalid_request');
    });

    it('passes a JSON object body through to the route', async () => {
      const response = await post('{"name":"x"}');
      expect(response.status).toBe(201);
      expect(((await response.json()) as { data: { body: unknown } }).data.body).toEqual({ name: 'x' });
    });

    it('gives 404 request_failed for an unknown endpoint', async () => {
      await expectError(
        await fetch(`${harness.baseUrl}/v1/nowhere`, { headers: { authorization: `Bearer ${token}` } }),
        404,
        'request_failed',
      );
    });

    it('gives 405 request_failed with Allow for an unsupported method', async () => {
      const response = await fetch(`${harness.baseUrl}/v1/echo`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.headers.get('allow')).toBe('GET, POST');
      await expectError(response, 405, 'request_failed');
    });
  });
});
