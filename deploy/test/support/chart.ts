// Reading charts/dss without Helm: values files merged the way Helm merges them, template sources, a stub
// renderer that turns a template into parseable YAML, and a small interpreter for the one helper that
// builds every component's environment. Helm itself is not needed (nor available) where `npm test` runs.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const CHART_DIR = path.join(REPO_ROOT, 'charts/dss');
export const TEMPLATES_DIR = path.join(CHART_DIR, 'templates');

export type Values = Record<string, unknown>;

export function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readYamlFile(file: string): unknown {
  return YAML.parse(fs.readFileSync(file, 'utf8'));
}

export function defaultValues(): Values {
  return readYamlFile(path.join(CHART_DIR, 'values.yaml')) as Values;
}

/** The values files under charts/dss/ci, by file name. */
export function ciValuesFiles(): string[] {
  const dir = path.join(CHART_DIR, 'ci');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('-values.yaml'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** Helm's coalescing of a user values file over the chart's: maps merge, other values replace, null deletes. */
export function coalesce(base: unknown, override: unknown): unknown {
  if (!isMap(base) || !isMap(override)) return structuredClone(override);
  const out: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete out[key];
    else out[key] = key in out ? coalesce(out[key], value) : structuredClone(value);
  }
  return out;
}

/** The chart's `dss.mergeInto`: maps merge key by key; anything else, false and empty values too, replaces. */
export function mergeInto(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    out[key] =
      isMap(value) && isMap(out[key]) ? mergeInto(out[key] as Record<string, unknown>, value) : value;
  }
  return out;
}

export interface ComponentSettings {
  enabled?: boolean;
  args?: string[];
  ports?: { grpc?: number; http?: number; admin?: number };
  httpPortVariable?: string;
  uses?: { postgresql?: boolean; redis?: boolean; nats?: boolean };
  calls?: string[];
  allowedCallers?: string[];
  public?: boolean;
  env?: Record<string, string>;
  probes?: Record<
    'startup' | 'liveness' | 'readiness',
    { type: string; path: string; namedService?: boolean }
  >;
  [key: string]: unknown;
}

/** Each component's settings as the templates see them: componentDefaults overlaid with its own entry. */
export function componentSettings(values: Values): Record<string, ComponentSettings> {
  const defaults = values.componentDefaults as Record<string, unknown>;
  const components = values.components as Record<string, Record<string, unknown>>;
  return Object.fromEntries(
    Object.entries(components).map(([name, own]) => [name, mergeInto(defaults, own) as ComponentSettings]),
  );
}

export function templateFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
      );
  return walk(TEMPLATES_DIR).sort();
}

export function readTemplate(file: string): string {
  return fs.readFileSync(file, 'utf8');
}

const ACTION = /\{\{-?[\s\S]*?-?\}\}/g;
const COMMENT_ACTION = /\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g;
export const STUB = 'STUB';

/**
 * Turns a template into text that should parse as YAML, without rendering it: comments are dropped, a line
 * holding nothing but actions (if, range, end, an include that injects a block with nindent, ...) is
 * dropped, and an action inside a line becomes the word STUB (an action spanning lines counts as one line). Limits: both branches of an if/else are kept
 * (so they must be valid side by side), a range body is kept once, and what an include or toYaml injects
 * is not checked at all; it finds YAML syntax errors in the template's own text, not in the rendered output.
 */
export function stubTemplate(text: string): string {
  return text
    .replace(COMMENT_ACTION, '')
    .replace(ACTION, (action) => action.replace(/\n/g, ' '))
    .split('\n')
    .filter((line) => line.replace(ACTION, '').trim() !== '' || line.trim() === '')
    .map((line) => line.replace(ACTION, STUB))
    .join('\n');
}

/** The body of each `define` in a template file, by name. */
export function defines(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const lines = text.replace(COMMENT_ACTION, '').split('\n');
  let depth = 0;
  let current: { name: string; lines: string[] } | undefined;
  for (const line of lines) {
    const opened = line.match(/\{\{-?\s*define\s+"([^"]+)"/);
    if (opened && depth === 0) {
      current = { name: opened[1]!, lines: [] };
      depth = 1;
      continue;
    }
    if (current) {
      depth += countBlockOpeners(line) - countBlockEnds(line);
      if (depth === 0) {
        found.set(current.name, current.lines.join('\n'));
        current = undefined;
        continue;
      }
      current.lines.push(line);
    }
  }
  return found;
}

export function countBlockOpeners(text: string): number {
  return (text.match(/\{\{-?\s*(if|range|with|define|block)\b/g) ?? []).length;
}

export function countBlockEnds(text: string): number {
  return (text.match(/\{\{-?\s*end\s*-?\}\}/g) ?? []).length;
}

/** Every `.Values.a.b` path a template uses (also `$.Values…` and `$root.Values…`), as dotted strings. */
export function valuesPaths(text: string): string[] {
  return [...text.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)].map((match) => match[1]!.slice(1));
}

export function hasPath(values: unknown, dotted: string): boolean {
  let node = values;
  for (const key of dotted.split('.')) {
    if (!isMap(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

// --- The environment helper (dss.component.env), interpreted by deploy/lib/chart-env.js: the same code
// gives scripts/e2e-containers.js each container's environment, so the chart and the container e2e agree.

export type { EnvEntry } from '../../lib/chart-env';
export { componentEnv } from '../../lib/chart-env';
