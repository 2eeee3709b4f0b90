// Black-box: the per-token write limit, on a dedicated embedded stack whose limit is set low
// (DSS_RATE_LIMIT_WRITE_PER_MIN=3). A deployment's limits cannot be changed from here, so with
// E2E_BASE_URL set these journeys are skipped and say why.
import { call, errorOf } from '../support/api';
import { createDiagram, type Json, runId, tablesPatch } from '../support/diagrams';
import { isExternalStack, type Stack, startStack, teamMemberToken } from '../support/stack';

const WRITE_LIMIT = 3;
const skipReason = isExternalStack()
  ? ' [skipped: needs a dedicated stack with DSS_RATE_LIMIT_WRITE_PER_MIN=3, and E2E_BASE_URL is set]'
  : '';
const describeOnOwnStack = isExternalStack() ? describe.skip : describe;

describeOnOwnStack(`Write rate limit per token${skipReason}`, () => {
  const run = runId();
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ DSS_RATE_LIMIT_WRITE_PER_MIN: String(WRITE_LIMIT) });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 429 rate_limited with Retry-After once a token has used its creates for the minute, and counts per token', async () => {
    const team = `limited-${run}`;
    const email = `editor-${run}@limited.test`;
    const token = await teamMemberToken(stack, { team, email, write: true });
    const remaining: string[] = [];
    for (let i = 0; i < WRITE_LIMIT; i++) {
      const response = await createDiagram(stack.baseUrl, token, { name: `d${i}`, schema: tablesPatch(1) });
      expect(response.status).toBe(201);
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(WRITE_LIMIT));
      remaining.push(response.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const limited = await createDiagram(stack.baseUrl, token, { name: 'one more', schema: tablesPatch(1) });
    expect(limited.status).toBe(429);
    expect(errorOf(limited).code).toBe('rate_limited');
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');

    // Nothing was created by the refused request, and reads have a limit of their own.
    const listed = await call(stack.baseUrl, '/diagrams', { token });
    expect(listed.status).toBe(200);
    expect(((listed.body as Json).data as Json[]).map((item) => item.name).sort()).toEqual([
      'd0',
      'd1',
      'd2',
    ]);

    // Another token of the same user has its own budget.
    const second = await teamMemberToken(stack, { team, email, write: true });
    const other = await createDiagram(stack.baseUrl, second, {
      name: 'second token',
      schema: tablesPatch(1),
    });
    expect(other.status).toBe(201);
  });
});
