// create_diagram when the import outlasts its wait: it answers `importing` with the way to keep waiting,
// and repeating the identical call returns the same diagram (the API's replay window), not a second one.
import { SHOP_DDL, startTestStack, type TestStack } from '../../../packages/client/test/support/test-stack';
import { callTool, type McpEndpoint, mcpEndpoint } from './support/mcp-clients';

describe('create_diagram with an import that outlasts DSS_MCP_IMPORT_WAIT_MS', () => {
  let stack: TestStack;
  let endpoint: McpEndpoint;

  beforeAll(async () => {
    // No importer: the import stays `importing` for as long as the test needs.
    stack = await startTestStack({ DSS_IMPORT_WAIT_MS: '0' }, { withoutImporter: true });
    endpoint = await mcpEndpoint('http', stack, { DSS_MCP_IMPORT_WAIT_MS: '0' });
  });
  afterAll(async () => {
    await endpoint?.stop();
    await stack?.stop();
  });

  it('should answer importing with the advice to repeat the call, and the repeat should name the same diagram', async () => {
    const { token } = await stack.member({ write: true });
    const client = await endpoint.connect(token);
    const args = { name: 'Slow', driver: 'mysql', ddl: SHOP_DDL };

    const first = await callTool(client, 'create_diagram', args);
    expect(first.isError).toBe(false);
    const pending = JSON.parse(first.text);
    expect(pending).toMatchObject({ status: 'importing', uuid: expect.any(String) });
    expect(pending.next_step).toMatch(/same arguments/);

    const again = JSON.parse((await callTool(client, 'create_diagram', args)).text);
    expect(again).toMatchObject({ status: 'importing', uuid: pending.uuid });
  });
});
