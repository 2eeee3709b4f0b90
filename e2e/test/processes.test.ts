// The system as a cluster runs it: every service its own process, configured by environment variables only,
// on a nats-server and a database of its own (support/processes.ts). One journey crosses every process: an
// operator makes a token with the CLI, an agent imports DDL and proposes a change over REST, the reviewer
// applies it with the CLI, the MCP server reads the schema, the web app serves its sign-in page; the
// system keeps serving through a NATS outage; then every process stops cleanly on SIGTERM, as Kubernetes
// stops a pod.
import type { DssClient } from '@dss/client';
import { eventually, grpcHealthStatus } from '@dss/platform/testing';
import { validatedClient } from '../support/client';
import { runId } from '../support/diagrams';
import { mcpCall } from '../support/mcp';
import { HTTP_SERVICES, GRPC_SERVICES, type ProcessStack, startProcessStack } from '../support/processes';
import { dss, teamMemberToken } from '../support/stack';

const DDL = `CREATE TABLE customers (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE);
CREATE TABLE orders (id bigserial PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers (id));`;

describe('The system as separate processes, configured as the chart configures pods', () => {
  let stack: ProcessStack;
  let client: DssClient;
  let token: string;
  const email = `agent-${runId()}@processes.test`;

  beforeAll(async () => {
    stack = await startProcessStack();
    token = await teamMemberToken(stack, {
      team: `processes-${runId()}`,
      email,
      role: 'editor',
      write: true,
    });
    client = validatedClient(stack.baseUrl, token);
  }, 150_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('should have every service ready, each with the dependency checks it owns and its gRPC health', async () => {
    for (const name of [...GRPC_SERVICES, ...HTTP_SERVICES]) {
      const response = await fetch(`http://127.0.0.1:${stack.services[name].adminPort}/readyz`);
      const body = (await response.json()) as { ok: boolean; checks: Record<string, unknown> };
      expect({ name, status: response.status, ok: body.ok }).toEqual({ name, status: 200, ok: true });
    }
    // What the chart's gRPC probes ask: the overall status (liveness) and the service's own (readiness).
    for (const name of GRPC_SERVICES) {
      const address = stack.services[name].grpcAddress!;
      const service = `dss.v1.${name[0]!.toUpperCase()}${name.slice(1)}`;
      expect({
        name,
        overall: await grpcHealthStatus(address, ''),
        own: await grpcHealthStatus(address, service),
      }).toEqual({ name, overall: 'SERVING', own: 'SERVING' });
    }
    const diagramsChecks = await fetch(`http://127.0.0.1:${stack.services.diagrams.adminPort}/readyz`);
    expect(((await diagramsChecks.json()) as { checks: object }).checks).toEqual({
      diagrams_postgres: true,
      bus: true,
    });
  });

  it('should import DDL, propose a change, apply it with the CLI, and serve the result over MCP', async () => {
    const created = await client.createDiagram({ name: 'Shop', driver: 'pgsql', ddl: DDL });
    expect(created.httpStatus).toBe(201);
    expect(created.data).toMatchObject({ status: 'ready', table_count: 2 });

    const proposal = await client.proposeChanges(created.data.uuid, {
      title: 'Order status',
      message: 'Orders need a status',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'orders', columns: [{ name: 'status', type: 'text' }] }],
      },
    });
    expect(proposal.status).toBe('pending');
    const applied = await dss(stack, 'proposal', 'apply', proposal.uuid, '--email', email);
    expect({ code: applied.code, stderr: applied.stderr }).toEqual({ code: 0, stderr: '' });
    expect((await client.getProposal(proposal.uuid)).state).toBe('applied');

    const markdown = await client.getSchemaMarkdown(created.data.uuid);
    expect(markdown).toContain('- status: text');
    const initialized = await mcpCall(stack.mcpUrl, token, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'e2e', version: '1' },
    });
    expect(initialized.result).toMatchObject({ serverInfo: expect.any(Object) });
    const read = await mcpCall(stack.mcpUrl, token, 'tools/call', {
      name: 'get_schema',
      arguments: { diagram_uuid: created.data.uuid },
    });
    expect(read.result).toMatchObject({ content: [{ type: 'text', text: markdown }] });
  });

  it('should serve the web app’s sign-in page', async () => {
    const response = await fetch(`${stack.appUrl}/sign-in`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('should keep serving while NATS is down: ready, creating and reading, the events waiting in the outbox', async () => {
    await stack.nats.stop();
    try {
      await eventually(async () => {
        const readiness = await fetch(`http://127.0.0.1:${stack.services.diagrams.adminPort}/readyz`);
        expect(readiness.status).toBe(200);
        expect(((await readiness.json()) as { checks: object }).checks).toMatchObject({ bus: false });
      }, 10_000);
      const created = await client.createDiagram({
        name: 'During the outage',
        driver: 'pgsql',
        schema: { strategy: 'merge', tables: [{ name: 'items', columns: [{ name: 'id', type: 'bigint' }] }] },
      });
      expect(created.httpStatus).toBe(201);
      expect((await client.getSchema(created.data.uuid)).tables.map((table) => table.name)).toEqual([
        'items',
      ]);
    } finally {
      await stack.nats.resume();
    }
  });

  it('should stop every process with exit code 0 on SIGTERM', async () => {
    const codes = await stack.terminate();
    expect(codes).toEqual({
      accounts: 0,
      diagrams: 0,
      proposals: 0,
      catalog: 0,
      importer: 0,
      notifications: 0,
      gateway: 0,
      web: 0,
      mcp: 0,
    });
  });
});
