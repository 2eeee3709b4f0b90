import { echoRoutes, startGatewayHarness } from './gateway-harness';

type Harness = Awaited<ReturnType<typeof startGatewayHarness>>;

describe('Gateway for browser-based and standards-following clients', () => {
  let harness: Harness;
  let bare: Harness;
  beforeAll(async () => {
    harness = await startGatewayHarness({
      routes: echoRoutes,
      env: {
        DSS_RATE_LIMIT_IP_PER_MIN: '10000',
        DSS_CORS_ORIGINS: 'https://tools.example, https://b.example',
      },
    });
    bare = await startGatewayHarness({ routes: echoRoutes, env: { DSS_RATE_LIMIT_IP_PER_MIN: '10000' } });
  });
  afterAll(async () => {
    await harness.stop();
    await bare.stop();
  });

  it('names the Bearer scheme in WWW-Authenticate on every 401 (RFC 6750)', async () => {
    const missing = await fetch(`${harness.baseUrl}/v1/echo`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="dss"');
    const forged = await fetch(`${harness.baseUrl}/v1/echo`, { headers: { authorization: 'Bearer a.b.c' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toBe('Bearer realm="dss", error="invalid_token"');
  });

  it('answers a CORS preflight from an allowed origin before authentication, without credentials', async () => {
    const preflight = await fetch(`${harness.baseUrl}/v1/echo`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://tools.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://tools.example');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('lets an allowed origin read the response and exposed headers, and gives no grant to others', async () => {
    const { token } = await harness.token({ team: 'cors', email: 'c@cors.test' });
    const allowed = await fetch(`${harness.baseUrl}/v1/echo`, {
      headers: { origin: 'https://b.example', authorization: `Bearer ${token}` },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://b.example');
    expect(allowed.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/);
    const other = await fetch(`${harness.baseUrl}/v1/echo`, {
      headers: { origin: 'https://evil.example', authorization: `Bearer ${token}` },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends no CORS headers when no origin is configured', async () => {
    const preflight = await fetch(`${bare.baseUrl}/v1/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://tools.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
