// Black-box: data types and the patch contract.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { call, errorOf } from '../support/api';
import { type Stack, startStack, teamMemberToken } from '../support/stack';

describe('GET /data-types and GET /schema-patch-contract', () => {
  let stack: Stack;
  let token: string;
  beforeAll(async () => {
    stack = await startStack();
    token = await teamMemberToken(stack, {
      team: 'catalog-e2e',
      email: 'reader@catalog.test',
      role: 'viewer',
    });
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('returns every driver’s catalog under data, with the spec’s entry fields', async () => {
    const response = await call(stack.baseUrl, '/data-types', { token });
    expect(response.status).toBe(200);
    const data = (response.body as { data: Record<string, { name: string }[]> }).data;
    expect(Object.keys(data).sort()).toEqual(['mysql', 'pgsql', 'sqlsrv']);
    for (const entries of Object.values(data)) {
      expect(entries.length).toBeGreaterThan(20);
      expect(Object.keys(entries[0]!).sort()).toEqual([
        'aliases',
        'family',
        'name',
        'options',
        'param_values',
        'params',
      ]);
    }
    expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  });

  it('narrows the catalog to one driver with ?driver=', async () => {
    const response = await call(stack.baseUrl, '/data-types?driver=sqlsrv', { token });
    expect(Object.keys((response.body as { data: object }).data)).toEqual(['sqlsrv']);
  });

  it('answers 422 invalid_request for an unknown driver', async () => {
    const response = await call(stack.baseUrl, '/data-types?driver=oracle', { token });
    expect(response.status).toBe(422);
    expect(errorOf(response).code).toBe('invalid_request');
  });

  it('answers 304 with no body when If-None-Match carries the ETag, including in a list and as *', async () => {
    const first = await call(stack.baseUrl, '/data-types?driver=mysql', { token });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    for (const header of [etag, `"other", ${etag}`, '*', `W/${etag}`]) {
      const again = await call(stack.baseUrl, '/data-types?driver=mysql', {
        token,
        headers: { 'if-none-match': header },
      });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    }
    const changed = await call(stack.baseUrl, '/data-types?driver=mysql', {
      token,
      headers: { 'if-none-match': '"stale"' },
    });
    expect(changed.status).toBe(200);
  });

  it('returns the patch contract byte for byte as the published contract file, with an ETag', async () => {
    const published = readFileSync(
      path.resolve(__dirname, '../../packages/schema/src/contract/schema-patch-contract.json'),
      'utf8',
    );
    const response = await call(stack.baseUrl, '/schema-patch-contract', { token });
    expect(response.status).toBe(200);
    expect(response.text).toBe(published);
    const etag = response.headers.get('etag')!;
    expect(
      (await call(stack.baseUrl, '/schema-patch-contract', { token, headers: { 'if-none-match': etag } }))
        .status,
    ).toBe(304);
  });

  it('needs a token for both', async () => {
    expect((await call(stack.baseUrl, '/data-types')).status).toBe(401);
    expect(errorOf(await call(stack.baseUrl, '/schema-patch-contract')).code).toBe('unauthenticated');
  });

  it('serves the OpenAPI description without a token', async () => {
    const response = await fetch(`${stack.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});
