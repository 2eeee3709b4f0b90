// Black-box: the recommended order for a change (spec), as an agent does it through @dss/client with every
// response checked against the OpenAPI description: create, list across pages, read the schema, the data
// types and the contract, propose, then wait for the proposal while a reviewer applies it with the CLI.
import type { DssClient } from '@dss/client';
import { validatedClient } from '../support/client';
import { runId } from '../support/diagrams';
import { dss, isExternalStack, type Stack, startStack, teamMemberToken } from '../support/stack';

// The reviewer's apply goes through the CLI to proposals over gRPC, which only the embedded stack exposes.
const reviewIt = isExternalStack() ? it.skip : it;

describe('A change made through @dss/client (recommended order)', () => {
  let stack: Stack;
  let client: DssClient;
  const team = `client-e2e-${runId()}`;
  const email = `agent-${runId()}@client.test`;

  beforeAll(async () => {
    stack = await startStack();
    const token = await teamMemberToken(stack, { team, email, role: 'editor', write: true });
    client = validatedClient(stack.baseUrl, token);
  }, 60_000); // four CLI processes for the token: slow on a busy machine
  afterAll(async () => {
    await stack.stop();
  });

  it('creates diagrams and finds each once when iterating across pages', async () => {
    const created: string[] = [];
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const outcome = await client.createDiagram({
        name,
        driver: 'pgsql',
        schema: { strategy: 'merge', tables: [{ name: 'items', columns: [{ name: 'id', type: 'bigint' }] }] },
      });
      expect(outcome.httpStatus).toBe(201);
      created.push(outcome.data.uuid);
    }
    const seen: string[] = [];
    for await (const diagram of client.iterateDiagrams({ pageSize: 2 })) seen.push(diagram.uuid);
    expect(seen).toEqual(expect.arrayContaining(created));
    expect(new Set(seen).size).toBe(seen.length);
  });

  reviewIt('reads, proposes and waits until the reviewer applies the proposal', async () => {
    const { data } = await client.createDiagram({
      name: 'Orders',
      driver: 'pgsql',
      schema: {
        strategy: 'merge',
        tables: [{ name: 'orders', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
      },
    });

    const markdown = await client.getSchemaMarkdown(data.uuid);
    expect(markdown).toContain('orders');
    const types = await client.listDataTypes('pgsql');
    expect(types.pgsql?.some((entry) => entry.name === 'text')).toBe(true);
    const contract = await client.getSchemaPatchContract();
    expect(Object.keys(contract.properties)).toContain('tables');

    const proposal = await client.proposeChanges(data.uuid, {
      title: 'Order status',
      message: 'Support filters orders by status',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'orders', columns: [{ name: 'status', type: 'text' }] }],
      },
    });
    expect(proposal.status).toBe('pending');

    let reviewed = false;
    const final = await client.waitForProposal(proposal.uuid, {
      intervalSeconds: 0,
      timeoutMs: 30_000,
      sleep: async () => {
        if (reviewed) return;
        reviewed = true;
        const applied = await dss(stack, 'proposal', 'apply', proposal.uuid, '--email', email);
        expect(applied.code).toBe(0);
      },
    });
    expect(final.state).toBe('applied');
    expect((await client.getSchema(data.uuid)).tables[0]?.columns.map((c) => c.name)).toEqual([
      'id',
      'status',
    ]);
  });
});
