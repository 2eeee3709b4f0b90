// What the services themselves read, taken from their sources: each service's src/config.ts, the platform
// package (LOG_LEVEL, DSS_SHUTDOWN_DRAIN_MS, DSS_PROTO_DIR, OTEL_*), the default gRPC addresses, the gRPC
// clients each service creates, and the README's configuration table (for a component without a config.ts).
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './chart';

const VARIABLE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

export interface ServiceConfig {
  name: string;
  file: string;
  /** Every variable the config reads. */
  variables: Set<string>;
  /** Integer defaults of `env.int('NAME', { default: N ... })` calls. */
  intDefaults: Map<string, number>;
}

/** Services that have a config.ts (the ones that exist today). */
export function serviceConfigs(): Map<string, ServiceConfig> {
  const dir = path.join(REPO_ROOT, 'services');
  const found = new Map<string, ServiceConfig>();
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, 'src/config.ts');
    if (fs.existsSync(file)) found.set(name, readServiceConfig(name, file));
  }
  return found;
}

/**
 * The variables a config.ts reads: the first argument of every `env.<reader>(` call (across line breaks), and
 * every other quoted upper-case name in the file, which catches names handed to a local helper such as the
 * gateway's `perMinute('DSS_RATE_LIMIT_IP_PER_MIN', 60)`. Over-counting is possible (an upper-case string
 * that is not a variable); under-counting would need a name built at run time, which config.ts does not do.
 */
export function readServiceConfig(name: string, file: string): ServiceConfig {
  const source = fs.readFileSync(file, 'utf8');
  const variables = new Set<string>();
  for (const match of source.matchAll(/\benv\s*\.\s*\w+\(\s*['"]([A-Z][A-Z0-9_]*)['"]/g))
    variables.add(match[1]!);
  for (const match of source.matchAll(/['"]([A-Z][A-Z0-9_]*)['"]/g))
    if (VARIABLE.test(match[1]!)) variables.add(match[1]!);
  const intDefaults = new Map<string, number>();
  for (const match of source.matchAll(
    /\benv\s*\.\s*int\(\s*['"]([A-Z0-9_]+)['"]\s*,\s*\{\s*default:\s*(\d+)/g,
  ))
    intDefaults.set(match[1]!, Number(match[2]));
  return { name, file, variables, intDefaults };
}

/**
 * The gRPC services a service calls, from its own sources: the first argument of every
 * `createServiceClient('<Service>', …)` under services/<name>/src, test files left out, lower-cased to the
 * chart's component names and sorted.
 */
export function grpcClientsOf(name: string): string[] {
  const called = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['test', '__tests__', 'generated'].includes(entry.name)) walk(full);
      } else if (/\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)) {
        const source = fs.readFileSync(full, 'utf8');
        for (const match of source.matchAll(/\bcreateServiceClient\s*(?:<[^(]*?>)?\(\s*['"](\w+)['"]/g))
          called.add(match[1]!.toLowerCase());
      }
    }
  };
  walk(path.join(REPO_ROOT, 'services', name, 'src'));
  return [...called].sort();
}

/** Variables the platform package reads in every process (not its testing helpers). */
export function platformVariables(): Set<string> {
  const root = path.join(REPO_ROOT, 'packages/platform/src');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['testing', 'generated'].includes(entry.name)) walk(full);
      } else if (entry.name.endsWith('.ts')) files.push(full);
    }
  };
  walk(root);
  const variables = new Set<string>();
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(/\benv\s*\.\s*\w+\(\s*['"]([A-Z][A-Z0-9_]*)['"]/g))
      variables.add(match[1]!);
    for (const match of source.matchAll(/\b(?:process\.env|source|env)\.([A-Z][A-Z0-9_]*)\b/g))
      variables.add(match[1]!);
  }
  return variables;
}

/** The OpenTelemetry SDK reads the whole OTEL_* family itself (packages/platform/src/tracing). */
export function isOpenTelemetryVariable(name: string): boolean {
  return /^OTEL_[A-Z0-9_]+$/.test(name);
}

/** DEFAULT_GRPC_ADDRESSES of packages/platform/src/service-addresses.ts: service name to default port. */
export function defaultGrpcPorts(): Map<string, number> {
  const source = fs.readFileSync(path.join(REPO_ROOT, 'packages/platform/src/service-addresses.ts'), 'utf8');
  const block = /DEFAULT_GRPC_ADDRESSES\s*=\s*\{([\s\S]*?)\}/.exec(source);
  if (!block) throw new Error('DEFAULT_GRPC_ADDRESSES not found in service-addresses.ts');
  return new Map(
    [...block[1]!.matchAll(/(\w+):\s*'[^':]+:(\d+)'/g)].map((match) => [match[1]!, Number(match[2])]),
  );
}

/** Rows of the README's configuration table: variable name to its documented default. */
export function readmeVariables(): Map<string, string> {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const match of readme.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*([^|]*?)\s*\|/gm))
    rows.set(match[1]!, match[2]!);
  return rows;
}
