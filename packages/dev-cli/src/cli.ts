// The developer's CLI (`dss-dev`): the schema commands of the operator CLI (introspect, drift, lint,
// check; packages/schema-cli) run next to the database, talking only to the REST API with a personal
// access token. It needs no access to the services' gRPC ports: `introspect --create` and `--propose` act
// as the token's user in the token's team. Returns the exit code instead of exiting, so tests can run it
// in-process.
import { type DssClient, isDssApiError } from '@dss/client';
import type { DiagramDocument } from '@dss/schema';
import {
  apiClient,
  DEFAULT_API_URL,
  type IntrospectPublisher,
  introspectionProposal,
  patchToLive,
  registerSchemaCommands,
  UsageError,
} from '@dss/schema-cli';
import { createScript } from '@dss/sql';
import { Command, CommanderError, InvalidArgumentError } from 'commander';

export interface DevCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** `--create` and `--propose` over the REST API, as the token's user (an owner or editor of its team). */
function apiPublisher(api: () => DssClient): IntrospectPublisher {
  return {
    options: (command) => command,
    check: () => undefined,
    async create(read, name) {
      // The CREATE script of what was read goes through the importer, as a DDL upload does: the diagram
      // keeps foreign-key names and actions, which a schema patch cannot carry.
      const client = api();
      const created = await client.createDiagram({
        name,
        driver: read.document.driver,
        ddl: createScript(read.document).sql,
      });
      const diagram =
        created.data.status === 'importing' ? await client.waitForImport(created) : created.data;
      return { uuid: diagram.uuid, status: diagram.status };
    },
    async propose(read, diagramUuid) {
      const client = api();
      const current = (await client.getDiagramDocument(diagramUuid)) as unknown as DiagramDocument;
      const proposal = await client.proposeChanges(diagramUuid, {
        schema: patchToLive(current, read.document) as never,
        ...introspectionProposal(read.source),
      });
      return { uuid: proposal.uuid, review_url: proposal.review_url };
    },
  };
}

export async function runDevCli(argv: string[], io: DevCliIo): Promise<number> {
  const program = new Command('dss-dev')
    .description(
      'Diagram Schema Service for developers: read a live database where it runs and compare it with a diagram, ' +
        'over the REST API with a personal access token (credentials in --url never leave this machine)',
    )
    .option('--api-url <url>', `the API's root (default DSS_API_URL, else ${DEFAULT_API_URL})`)
    .option('--token-file <file>', 'read the token from this file (default DSS_TOKEN)')
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  let exitCode = 0;
  let client: DssClient | undefined;
  const api = () => {
    client ??= apiClient(io.env, program.opts<{ apiUrl?: string; tokenFile?: string }>());
    return client;
  };
  registerSchemaCommands(program, {
    io,
    api,
    publisher: apiPublisher(api),
    exit: (code) => {
      exitCode = code;
    },
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError)
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    if (error instanceof UsageError || error instanceof InvalidArgumentError) {
      io.stderr(`error: ${error.message}\n\n${program.helpInformation()}`);
      return 2;
    }
    if (isDssApiError(error)) {
      io.stderr(`error: ${error.code}: ${error.message}\n`);
      for (const problem of error.errors ?? []) io.stderr(`  ${problem.path}: ${problem.message}\n`);
      return 1;
    }
    io.stderr(`error: ${(error as Error).message.split('\n')[0]}\n`);
    return 1;
  }
}
