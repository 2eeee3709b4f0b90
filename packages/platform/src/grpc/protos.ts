// Finds and loads the proto files at run time. One proto source for every service: the directory is
// taken from DSS_PROTO_DIR, else found by walking up from this file to `proto/dss/v1`, which works from
// src/ (jest), from dist/ and from a container image that copies proto/ next to the packages.
import fs from 'node:fs';
import path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';

export const DSS_PROTO_PACKAGE = 'dss.v1';

/** Where the protos come from. The defaults are the system's own protos; tests pass a fixture dir. */
export interface ProtoSource {
  /** Directory holding the .proto files (also the import root). */
  protoDir?: string;
  /** File names inside protoDir; default every *.proto there. */
  protoFiles?: string[];
  /** Proto package of the services; default dss.v1. */
  protoPackage?: string;
}

// The loader options everywhere (and the same flags for the type generator): snake_case field names are
// our wire names, int64 arrives as a number, enums as their names, unset fields get their defaults.
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

export function locateProtoDir(startDir: string = __dirname, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.DSS_PROTO_DIR;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`DSS_PROTO_DIR points to a missing directory: ${fromEnv}`);
    return path.resolve(fromEnv);
  }
  for (let dir = path.resolve(startDir); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'proto', 'dss', 'v1');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`cannot find proto/dss/v1 above ${startDir}; set DSS_PROTO_DIR`);
}

const cache = new Map<string, protoLoader.PackageDefinition>();

/** Loads (once per process and source) the package definition of every proto in the source. */
export function loadProtos(source: ProtoSource = {}): protoLoader.PackageDefinition {
  const dir = source.protoDir ?? locateProtoDir();
  const files =
    source.protoFiles ??
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.proto'))
      .sort();
  const key = `${dir}\0${files.join('\0')}`;
  let definition = cache.get(key);
  if (!definition) {
    definition = protoLoader.loadSync(files, { ...LOADER_OPTIONS, includeDirs: [dir] });
    cache.set(key, definition);
  }
  return definition;
}

/** The service definition of `service` in the source's package, or an error naming what is missing. */
export function serviceDefinition(service: string, source: ProtoSource = {}): protoLoader.ServiceDefinition {
  const fullName = `${source.protoPackage ?? DSS_PROTO_PACKAGE}.${service}`;
  const found = loadProtos(source)[fullName];
  if (!found || 'format' in found) throw new Error(`no gRPC service ${fullName} in the loaded protos`);
  return found as protoLoader.ServiceDefinition;
}
