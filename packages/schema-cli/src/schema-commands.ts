// The commands that read a live database where it runs: `introspect` (a new diagram, a proposal or a
// file), `drift` (the diagram, or one of its versions, against the database), `lint` and `check`. Both CLIs
// register them: the operator's (`dss`) and the developer's (`dss-dev`); only how `introspect --create` and
// `--propose` reach the service differs (the context's publisher). Credentials in --url never leave this
// process: outputs name the database by host, port and name only.
import { readFile, writeFile } from 'node:fs/promises';
import type { DssClient } from '@dss/client';
import { type DiagramDocument, diff, isEmptyDiff, renderDiffMarkdown } from '@dss/schema';
import { dbmlScript } from '@dss/sql';
import { type Command, InvalidArgumentError } from 'commander';
import { registerCheckCommand } from './check-command';
import { errorLine, type SchemaCommandContext } from './command-context';
import { introspect, REQUIRED_PRIVILEGES } from './introspect';
import { alignToDiagram } from './introspect/align';
import { registerLintCommand } from './lint-command';
import { UsageError } from './usage-error';

/** The title and message of a proposal made from a live database: where it came from, never who read it. */
export function introspectionProposal(source: string): { title: string; message: string } {
  return {
    title: `Introspected from ${source}`.slice(0, 100),
    message: `The schema of the live database ${source}, read by dss introspect on ${new Date().toISOString()}.`,
  };
}

/** A version's schema as a document to diff against: no canvas (the live side takes the diagram's). */
export async function diagramToCompare(
  api: DssClient,
  uuid: string,
  version: number | undefined,
): Promise<DiagramDocument> {
  if (version === undefined) return (await api.getDiagramDocument(uuid)) as unknown as DiagramDocument;
  const schema = await api.getVersionSchema(uuid, version);
  return {
    driver: schema.driver,
    schema_version: schema.schema_version,
    tables: schema.tables.map((table) => ({
      ...table,
      left: 0,
      top: 0,
      width: 0,
      height: 0,
      color: null,
      parent_uuid: null,
    })),
    relationships: schema.relationships,
    groups: [],
    sticky_notes: [],
  } as unknown as DiagramDocument;
}

export function versionNumber(value: string): number {
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new InvalidArgumentError('a version number (1 is the oldest)');
  return Number(value);
}

export function registerSchemaCommands(program: Command, context: SchemaCommandContext): void {
  const { io, publisher } = context;
  const print = (json: boolean | undefined, record: object, text: string) =>
    io.stdout(json ? `${JSON.stringify(record, null, 2)}\n` : `${text}\n`);

  const introspectCommand = program
    .command('introspect')
    .description(
      `read a live database's schema into a diagram, a proposal or a file (needs ${REQUIRED_PRIVILEGES})`,
    )
    .requiredOption(
      '--url <url>',
      'postgres://…, mysql://… or mariadb://… (credentials stay on this machine)',
    );
  publisher
    .options(introspectCommand)
    .option('--create <name>', 'create a diagram with this name; prints its uuid')
    .option('--propose <uuid>', 'propose the difference to this diagram')
    .option('--out <file>', 'write the schema to schema.json or schema.dbml')
    .option('--json', 'print the result as JSON')
    .action(async (options) => {
      const modes = [options.create, options.propose, options.out].filter((mode) => mode !== undefined);
      if (modes.length !== 1) throw new UsageError('give exactly one of --create, --propose and --out');
      if (options.create) publisher.check(options, 'create');
      if (options.propose) publisher.check(options, 'propose');
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
      if (options.create) {
        const created = await publisher.create(read, options.create, options);
        print(options.json, { ...created, ...summary }, created.uuid);
        return;
      }
      const proposal = await publisher.propose(read, options.propose, options);
      print(options.json, { ...proposal, ...summary }, proposal.review_url);
    });

  program
    .command('drift')
    .description(
      'compare a diagram (or one of its versions) with a live database: exit 0 equal, 1 different, 2 error',
    )
    .requiredOption('--diagram <uuid>', 'the diagram')
    .option(
      '--version <n>',
      'compare this version of the diagram (1 is the oldest; default the current)',
      versionNumber,
    )
    .requiredOption('--url <url>', 'postgres://…, mysql://… or mariadb://…')
    .option('--json', 'print the difference as JSON')
    .action(async (options) => {
      try {
        const diagram = await diagramToCompare(context.api(), options.diagram, options.version);
        const read = await introspect(options.url);
        const changes = diff(diagram, alignToDiagram(read.document, diagram));
        const equal = isEmptyDiff(changes);
        const compared =
          options.version === undefined ? options.diagram : `${options.diagram} version ${options.version}`;
        print(
          options.json,
          {
            diagram: options.diagram,
            ...(options.version === undefined ? {} : { version: options.version }),
            source: read.source,
            equal,
            changes,
          },
          equal
            ? `# No drift\n\nThe diagram${options.version === undefined ? '' : ` (version ${options.version})`} matches ${read.source}.`
            : `# Drift: diagram ${compared} → ${read.source}\n\n${renderDiffMarkdown(changes)}`,
        );
        context.exit(equal ? 0 : 1);
      } catch (error) {
        io.stderr(`error: ${errorLine(error)}\n`);
        context.exit(2);
      }
    });

  registerLintCommand(program, {
    io,
    api: context.api,
    exit: context.exit,
    readText: (file) => readFile(file, 'utf8'),
  });
  registerCheckCommand(program, context);
}
