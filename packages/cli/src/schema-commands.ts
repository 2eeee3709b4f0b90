// The commands that read a live database where it runs: `introspect` (a new diagram, a proposal or a
// file), `drift` (the diagram against the database) and `lint` (the team's rules on a diagram, a DDL file
// or a database). Credentials in --url never leave this process: outputs name the database by host, port
// and name only.
import { readFile, writeFile } from 'node:fs/promises';
import type { ServiceClient } from '@dss/platform';
import { type DiagramDocument, diff, isEmptyDiff, renderDiffMarkdown } from '@dss/schema';
import { createScript, dbmlScript } from '@dss/sql';
import type { Command } from 'commander';
import { apiClient } from './api';
import { registerCheckCommand } from './check-command';
import type { Clients } from './clients';
import { errorLine, type SchemaCommandContext } from './command-context';
import { introspect, REQUIRED_PRIVILEGES } from './introspect';
import { alignToDiagram } from './introspect/align';
import { patchToLive } from './introspect/proposal-patch';
import { registerLintCommand } from './lint-command';
import { UsageError } from './usage-error';

type Principal = Parameters<ServiceClient<'Diagrams'>['GetDiagram']>[0]['principal'];

/** The principal of `email` in a team, as the gateway would resolve it from one of their tokens. */
async function principalIn(clients: Clients, teamSlug: string, email: string): Promise<Principal> {
  const team = await clients.accounts.GetTeam({ slug: teamSlug, id: '' });
  const user = await clients.accounts.GetUser({ email, id: '' });
  const membership = await clients.accounts.GetMembership({ team_id: team.id, user_id: user.id });
  return {
    token_id: '',
    user_id: user.id,
    user_email: user.email,
    user_name: user.name,
    team_id: team.id,
    team_slug: team.slug,
    team_name: team.name,
    role: membership.role,
    write: true,
    plan: team.plan,
    caps: team.caps,
    expires_at: '',
  };
}

/** The principal of `email` in whichever of their teams holds the diagram. */
async function principalForDiagram(clients: Clients, email: string, diagramUuid: string) {
  const user = await clients.accounts.GetUser({ email, id: '' });
  const { memberships } = await clients.accounts.ListMemberships({ user_id: user.id });
  for (const membership of memberships) {
    const principal = await principalIn(clients, membership.team_slug, email);
    const found = await clients.diagrams.GetDiagram({ principal, uuid: diagramUuid }).catch(() => null);
    if (found) return principal;
  }
  throw new UsageError(`no diagram ${diagramUuid} in any team of ${email}`);
}

export function registerSchemaCommands(program: Command, context: SchemaCommandContext): void {
  const { io } = context;
  const print = (json: boolean | undefined, record: object, text: string) =>
    io.stdout(json ? `${JSON.stringify(record, null, 2)}\n` : `${text}\n`);

  program
    .command('introspect')
    .description(
      `read a live database's schema into a diagram, a proposal or a file (needs ${REQUIRED_PRIVILEGES})`,
    )
    .requiredOption(
      '--url <url>',
      'postgres://…, mysql://… or mariadb://… (credentials stay on this machine)',
    )
    .option('--team <slug>', 'the team of the new diagram (with --create)')
    .option('--email <email>', 'the user acting (with --create or --propose)')
    .option('--create <name>', 'create a diagram with this name; prints its uuid')
    .option('--propose <uuid>', 'propose the difference to this diagram')
    .option('--out <file>', 'write the schema to schema.json or schema.dbml')
    .option('--json', 'print the result as JSON')
    .action(async (options) => {
      const modes = [options.create, options.propose, options.out].filter((mode) => mode !== undefined);
      if (modes.length !== 1) throw new UsageError('give exactly one of --create, --propose and --out');
      if ((options.create || options.propose) && !options.email) throw new UsageError('--email is required');
      if (options.create && !options.team) throw new UsageError('--team is required with --create');
      if (options.out && !/\.(json|dbml)$/i.test(options.out))
        throw new UsageError('--out must end in .json or .dbml');
      const read = await introspect(options.url);
      for (const warning of read.warnings) io.stderr(`warning: ${warning}\n`);
      const summary = { source: read.source, tables: read.document.tables.length, warnings: read.warnings };
      if (options.out) {
        const text = /\.dbml$/i.test(options.out)
          ? dbmlScript(read.document)
          : `${JSON.stringify(read.document, null, 2)}\n`;
        await writeFile(options.out, text);
        print(
          options.json,
          { ...summary, file: options.out },
          `wrote ${read.document.tables.length} tables of ${read.source} to ${options.out}`,
        );
        return;
      }
      const clients = context.clients();
      if (options.create) {
        const principal = await principalIn(clients, options.team, options.email);
        // The CREATE script of what was read goes through the importer, as a DDL upload does: the diagram
        // keeps foreign-key names and actions, which a schema patch cannot carry.
        const created = await clients.diagrams.CreateDiagram({
          principal,
          name: options.create,
          driver: read.document.driver,
          ddl: createScript(read.document).sql,
          wait_ms: 60_000,
        });
        const diagram = created.diagram;
        print(
          options.json,
          { uuid: diagram?.uuid, status: diagram?.status, ...summary },
          diagram?.uuid ?? '',
        );
        return;
      }
      const principal = await principalForDiagram(clients, options.email, options.propose);
      const full = await clients.diagrams.GetFullDocument({ principal, uuid: options.propose });
      const current = (JSON.parse(full.body) as { data: DiagramDocument }).data;
      const proposal = await clients.proposals.CreateProposal({
        principal,
        diagram_uuid: options.propose,
        schema_json: JSON.stringify(patchToLive(current, read.document)),
        title: `Introspected from ${read.source}`.slice(0, 100),
        message: `The schema of the live database ${read.source}, read by dss introspect on ${new Date().toISOString()}.`,
      });
      print(
        options.json,
        { uuid: proposal.uuid, review_url: proposal.review_url, ...summary },
        proposal.review_url,
      );
    });

  program
    .command('drift')
    .description('compare a diagram with a live database: exit 0 equal, 1 different, 2 error')
    .requiredOption('--diagram <uuid>', 'the diagram')
    .requiredOption('--url <url>', 'postgres://…, mysql://… or mariadb://…')
    .option('--json', 'print the difference as JSON')
    .action(async (options) => {
      try {
        const diagram = (await apiClient(io.env).getDiagramDocument(
          options.diagram,
        )) as unknown as DiagramDocument;
        const read = await introspect(options.url);
        const changes = diff(diagram, alignToDiagram(read.document, diagram));
        const equal = isEmptyDiff(changes);
        print(
          options.json,
          { diagram: options.diagram, source: read.source, equal, changes },
          equal
            ? `# No drift\n\nThe diagram matches ${read.source}.`
            : `# Drift: diagram ${options.diagram} → ${read.source}\n\n${renderDiffMarkdown(changes)}`,
        );
        context.exit(equal ? 0 : 1);
      } catch (error) {
        io.stderr(`error: ${errorLine(error)}\n`);
        context.exit(2);
      }
    });

  registerLintCommand(program, { io, exit: context.exit, readText: (file) => readFile(file, 'utf8') });
  registerCheckCommand(program, context);
}
