// `dss check`: what a change (migrations run on a dev database, or a database a CI job just migrated)
// does to a diagram, as one report for a pull request: Markdown (counts, diff, lint, migration SQL and its
// warnings) or SARIF 2.1.0 (the lint findings). `--propose` opens a proposal for a person to approve.
// Exit 0 when nothing changes, 1 when something does, 2 when the check could not run.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type DiagramDocument, DRIVERS, diff, isEmptyDiff, lintSchema, parseLintConfig } from '@dss/schema';
import { migrationScript } from '@dss/sql';
import { type Command, Option } from 'commander';
import { type Migration, schemaAfterMigrations } from './check/dev-database';
import { changesPng } from './check/drawing';
import { changeCounts, renderCheckMarkdown } from './check/report';
import { introspect } from './introspect';
import { alignToDiagram } from './introspect/align';
import { patchToLive } from './introspect/proposal-patch';
import { sarifLog } from './sarif';
import { errorLine, type SchemaCommandContext } from './command-context';
import { UsageError } from './usage-error';

/** A file, or every `.sql` file of a folder in name order (the order migration tools run them). */
async function readMigrations(location: string): Promise<Migration[]> {
  if (!(await stat(location)).isDirectory())
    return [{ name: path.basename(location), sql: await readFile(location, 'utf8') }];
  const names = (await readdir(location)).filter((name) => name.endsWith('.sql')).sort();
  if (names.length === 0) throw new UsageError(`${location} holds no .sql files`);
  return Promise.all(
    names.map(async (name) => ({ name, sql: await readFile(path.join(location, name), 'utf8') })),
  );
}

export function registerCheckCommand(program: Command, context: SchemaCommandContext): void {
  const { io } = context;
  program
    .command('check')
    .description(
      'report what migrations (or a migrated database) do to a diagram: exit 0 unchanged, 1 changed, 2 error',
    )
    .requiredOption('--diagram <uuid>', 'the diagram (DSS_TOKEN, DSS_API_URL)')
    .option('--ddl <path>', 'a migration file or a folder of them (run in name order) with --dev-url')
    .addOption(
      new Option('--driver <driver>', 'the migrations’ driver (must be the diagram’s)').choices([...DRIVERS]),
    )
    .option('--dev-url <url>', 'an empty database to run the diagram and the migrations on')
    .option('--url <url>', 'a database a CI job already migrated')
    .addOption(
      new Option('--format <format>', 'report format').choices(['markdown', 'sarif']).default('markdown'),
    )
    .option('--out <file>', 'write the report to a file instead of standard output')
    .option(
      '--png <file>',
      'draw the changed part of the diagram here (default with --out: beside the report)',
    )
    .option('--propose', 'also open a proposal with the change, for review in the web app')
    .action(async (options) => {
      if ((options.url === undefined) === (options.ddl === undefined))
        throw new UsageError('give exactly one of --ddl (with --dev-url) and --url');
      if (options.ddl && !options.devUrl) throw new UsageError('--dev-url is required with --ddl');
      try {
        const client = context.api();
        const before = (await client.getDiagramDocument(options.diagram)) as unknown as DiagramDocument;
        if (options.driver && options.driver !== before.driver)
          throw new UsageError(`the diagram is ${before.driver}, not ${options.driver}`);
        const read = options.url
          ? await introspect(options.url)
          : await schemaAfterMigrations(options.devUrl, before, await readMigrations(options.ddl));
        for (const warning of read.warnings) io.stderr(`warning: ${warning}\n`);
        const after = alignToDiagram(read.document, before);
        const changes = diff(before, after);
        const settings = parseLintConfig((await client.getLintSettings()).settings);
        const lint = lintSchema(after, { before, config: settings.ok ? settings.config : undefined });
        const source = options.url ? read.source : options.ddl;
        const pngFile: string | undefined =
          options.png ??
          (options.out && options.format === 'markdown'
            ? options.out.replace(/(\.[^./]*)?$/, '.png')
            : undefined);
        const png = pngFile
          ? await changesPng(before, after, changes, `Changes to diagram ${options.diagram}`)
          : null;
        if (pngFile && png) await writeFile(pngFile, png);
        const report = {
          diagram: options.diagram,
          ...(pngFile && png
            ? { image: options.out ? path.relative(path.dirname(options.out), pngFile) : pngFile }
            : {}),
          source,
          changes,
          lint,
          migration: migrationScript(before, after),
          counts: changeCounts(changes),
        };
        let text =
          options.format === 'sarif'
            ? `${JSON.stringify(sarifLog(lint, source), null, 2)}\n`
            : renderCheckMarkdown(report);
        if (options.propose && !isEmptyDiff(changes)) {
          const proposal = await client.proposeChanges(options.diagram, {
            schema: patchToLive(before, read.document) as never,
            title: `Schema change from ${path.basename(source)}`.slice(0, 100),
            message: `Proposed by dss check: what ${source} does to the diagram.`,
          });
          if (options.format === 'markdown') text += `\nReview and apply: ${proposal.review_url}\n`;
          else io.stderr(`proposal: ${proposal.review_url}\n`);
        }
        if (options.out) await writeFile(options.out, text);
        else io.stdout(text);
        context.exit(isEmptyDiff(changes) ? 0 : 1);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        io.stderr(`error: ${errorLine(error)}\n`);
        context.exit(2);
      }
    });
}
