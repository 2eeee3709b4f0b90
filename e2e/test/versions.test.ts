// Black-box: a diagram's numbered versions and one version's schema (additions within /v1).
import { call, errorOf } from '../support/api';
import { dss, type Stack, startStack, teamMemberToken } from '../support/stack';

const BASE = {
  strategy: 'merge',
  tables: [{ name: 'customers', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
};

describe('GET /diagrams/{uuid}/versions and /versions/{number}/schema', () => {
  let stack: Stack;
  let editor: string;
  let viewer: string;
  let outsider: string;
  let uuid: string;

  beforeAll(async () => {
    stack = await startStack();
    editor = await teamMemberToken(stack, {
      team: 'versions-e2e',
      email: 'ed@versions.test',
      role: 'editor',
      write: true,
    });
    viewer = await teamMemberToken(stack, {
      team: 'versions-e2e',
      email: 'vi@versions.test',
      role: 'viewer',
    });
    outsider = await teamMemberToken(stack, { team: 'other-e2e', email: 'out@other.test', role: 'owner' });
    const created = await call(stack.baseUrl, '/diagrams', {
      method: 'POST',
      token: editor,
      json: { name: 'Versioned', driver: 'pgsql', schema: BASE },
    });
    uuid = (created.body as { data: { uuid: string } }).data.uuid;
    // Two applied proposals: versions 2 and 3.
    for (const table of ['orders', 'invoices']) {
      const proposed = await call(stack.baseUrl, `/diagrams/${uuid}/proposals`, {
        method: 'POST',
        token: editor,
        json: {
          title: `Add ${table}`,
          message: 'For the versions test.',
          schema: {
            strategy: 'additive',
            tables: [{ name: table, columns: [{ name: 'id', type: 'bigint' }] }],
          },
        },
      });
      const proposal = (proposed.body as { data: { uuid: string } }).data.uuid;
      const applied = await dss(stack, 'proposal', 'apply', proposal, '--email', 'ed@versions.test');
      expect(applied.code).toBe(0);
    }
    // A stack, three people and two CLI applies: generous on a loaded 2-core machine, not a timing assertion.
  }, 120_000);
  afterAll(async () => {
    await stack.stop();
  });

  it('lists the versions newest first, numbered from 1, with source, proposal and author, for a viewer too', async () => {
    const response = await call(stack.baseUrl, `/diagrams/${uuid}/versions`, { token: viewer });
    expect(response.status).toBe(200);
    const { data, meta } = response.body as {
      data: { number: number; source: string; proposal_uuid: string | null; author: string | null }[];
      meta: { has_more: boolean; next_cursor: string | null };
    };
    expect(data.map((version) => [version.number, version.source])).toEqual([
      [3, 'proposal'],
      [2, 'proposal'],
      [1, 'create'],
    ]);
    expect(data[0]!.proposal_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(data[2]!.proposal_uuid).toBeNull();
    expect(data.every((version) => typeof version.author === 'string')).toBe(true);
    expect(meta).toEqual({ has_more: false, next_cursor: null });
  });

  it('pages with limit and cursor', async () => {
    const first = await call(stack.baseUrl, `/diagrams/${uuid}/versions?limit=2`, { token: viewer });
    const firstPage = first.body as { data: { number: number }[]; meta: { next_cursor: string } };
    expect(firstPage.data.map((version) => version.number)).toEqual([3, 2]);
    const second = await call(
      stack.baseUrl,
      `/diagrams/${uuid}/versions?limit=2&cursor=${firstPage.meta.next_cursor}`,
      {
        token: viewer,
      },
    );
    expect((second.body as { data: { number: number }[] }).data.map((version) => version.number)).toEqual([
      1,
    ]);
    const bad = await call(stack.baseUrl, `/diagrams/${uuid}/versions?cursor=nonsense`, { token: viewer });
    expect(bad.status).toBe(422);
  });

  it('serves a version’s schema as /schema does, JSON or Markdown, and 404 for an unknown number', async () => {
    const first = await call(stack.baseUrl, `/diagrams/${uuid}/versions/1/schema`, { token: viewer });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toMatch(/^"/);
    expect(
      (first.body as { data: { tables: { name: string }[] } }).data.tables.map((table) => table.name),
    ).toEqual(['customers']);
    const latest = await call(stack.baseUrl, `/diagrams/${uuid}/versions/3/schema?format=markdown`, {
      token: viewer,
    });
    expect(latest.status).toBe(200);
    expect(latest.text).toContain('invoices');
    const current = await call(stack.baseUrl, `/diagrams/${uuid}/schema`, { token: viewer });
    const third = await call(stack.baseUrl, `/diagrams/${uuid}/versions/3/schema`, { token: viewer });
    expect(third.text).toBe(current.text);
    for (const number of ['4', '0', 'abc']) {
      const missing = await call(stack.baseUrl, `/diagrams/${uuid}/versions/${number}/schema`, {
        token: viewer,
      });
      expect(missing.status).toBe(404);
      expect(errorOf(missing).code).toBe('not_found');
    }
  });

  it('diffs two versions as JSON and Markdown, by default the last change, and diffs compose', async () => {
    const last = await call(stack.baseUrl, `/diagrams/${uuid}/diff`, { token: viewer });
    expect(last.status).toBe(200);
    type Diff = {
      data: {
        from: number;
        to: number;
        changes: { tables: { added: { name: string }[]; removed: unknown[] } };
      };
    };
    const lastDiff = (last.body as Diff).data;
    expect([lastDiff.from, lastDiff.to]).toEqual([2, 3]);
    expect(lastDiff.changes.tables.added.map((table) => table.name)).toEqual(['invoices']);
    const whole = (await call(stack.baseUrl, `/diagrams/${uuid}/diff?from=1&to=3`, { token: viewer }))
      .body as Diff;
    const first = (await call(stack.baseUrl, `/diagrams/${uuid}/diff?from=1&to=2`, { token: viewer }))
      .body as Diff;
    // diff(1,3) adds exactly what diff(1,2) and diff(2,3) add.
    expect(whole.data.changes.tables.added.map((table) => table.name).sort()).toEqual(
      [...first.data.changes.tables.added, ...lastDiff.changes.tables.added]
        .map((table) => table.name)
        .sort(),
    );
    const back = (await call(stack.baseUrl, `/diagrams/${uuid}/diff?from=3&to=1`, { token: viewer }))
      .body as Diff;
    expect(back.data.changes.tables.removed).toHaveLength(2);
    const markdown = await call(stack.baseUrl, `/diagrams/${uuid}/diff?from=1&to=3&format=markdown`, {
      token: viewer,
    });
    expect(markdown.headers.get('content-type')).toMatch(/text\/markdown/);
    expect(markdown.text).toContain('- added `orders`');
    expect(markdown.text).toContain('- added `invoices`');
    expect((await call(stack.baseUrl, `/diagrams/${uuid}/diff?to=9`, { token: viewer })).status).toBe(404);
    expect((await call(stack.baseUrl, `/diagrams/${uuid}/diff?from=x`, { token: viewer })).status).toBe(422);
  });

  it('answers 404 to another team for all three', async () => {
    for (const path of [
      `/diagrams/${uuid}/versions`,
      `/diagrams/${uuid}/versions/1/schema`,
      `/diagrams/${uuid}/diff`,
    ]) {
      const response = await call(stack.baseUrl, path, { token: outsider });
      expect(response.status).toBe(404);
    }
  });
});
