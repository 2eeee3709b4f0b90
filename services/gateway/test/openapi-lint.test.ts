// The served description passes the linters API users run on it: Spectral's `spectral:oas` ruleset and
// Redocly's recommended rules, with no error and no warning.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadOpenApiDocument, openApiJson } from '../src/openapi';

const bin = (name: string) => path.join(path.dirname(require.resolve(`${name}/package.json`)));

describe('the served OpenAPI description lints clean', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dss-openapi-lint-'));
  const file = path.join(dir, 'openapi.json');
  beforeAll(() => {
    writeFileSync(file, openApiJson());
    copyFileSync(path.join(__dirname, '..', 'openapi', '.spectral.yaml'), path.join(dir, '.spectral.yaml'));
  });

  const run = (args: string[]) => {
    try {
      return execFileSync(process.execPath, args, {
        cwd: dir,
        encoding: 'utf8',
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          NO_COLOR: '1',
        },
        timeout: 60_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      // Both tools exit non-zero when they find problems; their report is still on stdout.
      return (error as { stdout?: string }).stdout ?? '';
    }
  };

  it('has no Spectral spectral:oas error or warning', () => {
    const cli = path.join(bin('@stoplight/spectral-cli'), 'dist', 'index.js');
    const output = run([
      cli,
      'lint',
      file,
      '--ruleset',
      path.join(dir, '.spectral.yaml'),
      '--format',
      'json',
      '--quiet',
    ]);
    const findings = JSON.parse(output.slice(output.indexOf('['))) as {
      code: string;
      severity: number;
      path: string[];
    }[];
    // severity 0 is an error, 1 a warning (2 info, 3 hint).
    expect(findings.filter((finding) => finding.severity <= 1)).toEqual([]);
  });

  it('has no Redocly lint error or warning', () => {
    const cli = path.join(bin('@redocly/cli'), 'bin', 'cli.js');
    const output = run([cli, 'lint', file, '--format', 'json']);
    const report = JSON.parse(output.slice(output.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('documents 5XX and the X-Request-Id header on every operation', () => {
    type Json = Record<string, Record<string, unknown>>;
    const document = loadOpenApiDocument() as { paths: Record<string, Json>; components: Json };
    const missing: string[] = [];
    for (const [route, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'parameters') continue;
        const responses = (operation as { responses?: Json }).responses ?? {};
        if (!responses['5XX']) missing.push(`${method} ${route}: 5XX`);
        for (const [status, response] of Object.entries(responses)) {
          const resolved = (
            '$ref' in response
              ? document.components.responses![String(response.$ref).split('/').pop()!]
              : response
          ) as { headers?: Record<string, unknown> };
          if (!resolved.headers?.['X-Request-Id']) missing.push(`${method} ${route} ${status}: X-Request-Id`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
