// `dss lint`: the lint rules on a diagram (the team's rules, through the API), a DDL or DBML file, or a
// live database (the rules of `--config`, default ./dss.lint.json when present). Exit 0 without errors,
// 1 with lint errors, 2 when it could not lint.
import { existsSync } from 'node:fs';
import { convertDbml, convertDdl } from '@dss/ddl';
import {
  DRIVERS,
  type Driver,
  type LintConfig,
  type LintFinding,
  lintCounts,
  lintSchema,
  parseLintConfig,
} from '@dss/schema';
import { type Command, Option } from 'commander';
import type { DssClient } from '@dss/client';
import type { CommandIo } from './command-context';
import { introspect } from './introspect';
import { sarifLog } from './sarif';
import { UsageError } from './usage-error';

interface LintCommandContext {
  io: CommandIo;
  api: () => DssClient;
  exit: (code: number) => void;
  readText: (file: string) => Promise<string>;
}

async function configFrom(
  context: LintCommandContext,
  file: string | undefined,
): Promise<LintConfig | undefined> {
  const path = file ?? (existsSync('dss.lint.json') ? 'dss.lint.json' : undefined);
  if (path === undefined) return undefined;
  const parsed = parseLintConfig(await context.readText(path));
  if (!parsed.ok)
    throw new UsageError(
      `${path}: ${parsed.problems.map((p) => `${p.path || '(top)'} ${p.message}`).join('; ')}`,
    );
  return parsed.config;
}

/** A DDL or DBML file (by its extension) as a diagram document. */
export async function documentOfFile(context: LintCommandContext, file: string, driver: Driver) {
  const text = await context.readText(file);
  const result = /\.dbml$/i.test(file) ? await convertDbml(driver, text) : await convertDdl(driver, text);
  if (!result.ok) throw new UsageError(`${file}: ${result.code}: ${result.message}`);
  return result.document;
}

export function renderFindings(findings: readonly LintFinding[]): string {
  const { errors, warnings } = lintCounts(findings);
  const lines = findings.map((f) => `${f.severity.padEnd(7)} ${f.rule.padEnd(26)} ${f.message}`);
  return [
    ...lines,
    `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
  ].join('\n');
}

export function registerLintCommand(program: Command, context: LintCommandContext): void {
  program
    .command('lint')
    .description(
      'check a diagram, a DDL/DBML file or a live database against the lint rules (exit 1 on errors)',
    )
    .option('--diagram <uuid>', "a diagram, under its team's rules (DSS_TOKEN, DSS_API_URL)")
    .option('--ddl <file>', 'a DDL file (or .dbml) with --driver')
    .addOption(new Option('--driver <driver>', 'the DDL’s driver').choices([...DRIVERS]))
    .option('--url <url>', 'a live database (postgres://…, mysql://…)')
    .option('--config <file>', 'lint settings for --ddl and --url (default ./dss.lint.json when present)')
    .option('--json', 'print {data, errors, warnings} as JSON')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'sarif']))
    .action(async (options) => {
      const sources = [options.diagram, options.ddl, options.url].filter((source) => source !== undefined);
      if (sources.length !== 1) throw new UsageError('give exactly one of --diagram, --ddl and --url');
      if (options.ddl && !options.driver) throw new UsageError('--driver is required with --ddl');
      const format = options.format ?? (options.json ? 'json' : 'text');
      let findings: LintFinding[];
      let artifact: string;
      try {
        if (options.diagram) {
          findings = await context.api().getDiagramLint(options.diagram);
          artifact = `diagram/${options.diagram}`;
        } else {
          const config = await configFrom(context, options.config);
          const read = options.ddl
            ? { document: await documentOfFile(context, options.ddl, options.driver), source: options.ddl }
            : await introspect(options.url);
          findings = lintSchema(read.document, { config });
          artifact = read.source;
        }
      } catch (error) {
        if (error instanceof UsageError) throw error;
        context.io.stderr(`error: ${(error as Error).message.split('\n')[0]}\n`);
        context.exit(2);
        return;
      }
      const output =
        format === 'sarif'
          ? JSON.stringify(sarifLog(findings, artifact), null, 2)
          : format === 'json'
            ? JSON.stringify({ data: findings, ...lintCounts(findings) }, null, 2)
            : renderFindings(findings);
      context.io.stdout(`${output}\n`);
      context.exit(lintCounts(findings).errors > 0 ? 1 : 0);
    });
}
