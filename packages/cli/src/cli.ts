// The operator CLI: parses the command line (commander), calls the services over gRPC and prints the
// result, as a short line or with --json as JSON. Returns the process exit code instead of exiting, so
// tests can run it in-process.
import { isServiceError } from '@dss/platform';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { type Clients, connectClients } from './clients';
import { registerCommands } from './commands';
import { UsageError } from '@dss/schema-cli';
import { registerOperatorSchemaCommands } from './schema-commands';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Standard input as text (secrets such as a new password are read from it, never from argv). */
  readStdin?: () => Promise<string>;
}

export { UsageError } from '@dss/schema-cli';

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let clients: Clients | undefined;
  const getClients = () => {
    clients ??= connectClients(io.env);
    return clients;
  };
  const program = new Command('dss')
    .description('Operator commands for the Diagram Schema Service')
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  registerCommands(program, { clients: getClients, io });
  // Commands whose outcome is more than success (drift: 1 when the schemas differ) set the exit code.
  let exitCode = 0;
  registerOperatorSchemaCommands(program, {
    clients: getClients,
    io,
    exit: (code) => {
      exitCode = code;
    },
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    if (error instanceof UsageError || error instanceof InvalidArgumentError) {
      io.stderr(`error: ${error.message}\n\n${program.helpInformation()}`);
      return 2;
    }
    if (isServiceError(error)) {
      io.stderr(`error: ${error.code}: ${error.message}\n`);
      // The reasons behind it (e.g. why a proposal's patch no longer fits), one a line.
      for (const problem of error.extra.errors ?? []) io.stderr(`  ${problem.path}: ${problem.message}\n`);
      return 1;
    }
    io.stderr(`error: ${(error as Error).message}\n`);
    return 1;
  } finally {
    clients?.close();
  }
}
