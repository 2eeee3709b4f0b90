// Through the containers: the MCP server over Streamable HTTP reads a diagram made through the gateway, and
// the web app signs a person in and shows the diagram, in Chromium when the machine has it. Runs only from
// scripts/e2e-containers.sh (E2E_CONTAINERS_STACK).
import { existsSync } from 'node:fs';
import type { DssClient } from '@dss/client';
import { validatedClient } from '../../support/client';
import { type ContainerStack, containerStack } from '../../support/containers';
import { runId } from '../../support/diagrams';
import { mcpCall } from '../../support/mcp';
import { teamMemberToken } from '../../support/stack';

const DDL = `CREATE TABLE customers (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE);
CREATE TABLE orders (id bigserial PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers (id));`;

describe('MCP and the web app in their containers', () => {
  let stack: ContainerStack;
  let client: DssClient;
  let token: string;
  beforeAll(async () => {
    stack = containerStack();
    token = await teamMemberToken(stack, {
      team: `containers-${runId()}`,
      email: `agent-${runId()}@containers.test`,
      role: 'editor',
      write: true,
    });
    client = validatedClient(stack.baseUrl, token);
  });

  it('should serve over MCP the schema of a diagram the importer container converted', async () => {
    const created = await client.createDiagram({ name: 'Shop', driver: 'pgsql', ddl: DDL });
    expect(created.data).toMatchObject({ status: 'ready', table_count: 2 });
    const initialized = await mcpCall(stack.mcpUrl, token, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'e2e-containers', version: '1' },
    });
    expect(initialized.result).toMatchObject({ serverInfo: expect.any(Object) });
    const markdown = await client.getSchemaMarkdown(created.data.uuid);
    const read = await mcpCall(stack.mcpUrl, token, 'tools/call', {
      name: 'get_schema',
      arguments: { diagram_uuid: created.data.uuid },
    });
    expect(read.result).toMatchObject({ content: [{ type: 'text', text: markdown }] });
  });

  it('should serve the web app’s sign-in page with its security headers', async () => {
    const response = await fetch(`${stack.appUrl}/sign-in`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toBeTruthy();
  });

  const chromium = process.env.DSS_TEST_CHROMIUM || '/usr/bin/chromium';
  (existsSync(chromium) ? it : it.skip)(
    'should render the sign-in page in Chromium',
    async () => {
      const { chromium: launcher } = await import('playwright-core');
      const browser = await launcher.launch({
        executablePath: chromium,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
        ],
      });
      try {
        const page = await browser.newPage();
        const violations: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
        });
        const response = await page.goto(`${stack.appUrl}/sign-in`);
        expect(response?.status()).toBe(200);
        expect(await page.locator('input[name=email]').count()).toBe(1);
        expect(await page.locator('input[name=password]').count()).toBe(1);
        expect(violations).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
