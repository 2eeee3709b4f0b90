// The parts of @dbml/core this package uses, loaded on first use: its T-SQL reader (src/sqlsrv.ts) and its
// DBML → DDL exporter (src/dbml.ts). From the build's dist/vendor/dbml-core-lite.js
// (scripts/bundle-dbml-core.js: @dbml/core without the MySQL, PostgreSQL, Oracle and Snowflake grammars,
// ~90MB of RSS once loaded instead of ~310MB), or, when the package was built by tsc alone, from @dbml/core
// itself (the same answers, heavier).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type * as Dbml from '@dbml/core';

export interface DbmlCoreLite {
  /** @dbml/core's Parser.parseMSSQLToJSONv2: T-SQL → its JSON model; throws its syntax errors (an array). */
  parseMssql(text: string): unknown;
  exporter: typeof Dbml.exporter;
  /** @dbml/core's Parser.parse(text, 'dbmlv2'): its Database model; throws its diagnostics (`{diags}`). */
  parseDbml(text: string): unknown;
}

/** The built copy, beside this file in dist/ or in dist/ when running from src/ (jest). */
function builtCopy(): string | undefined {
  return [
    path.join(__dirname, 'vendor', 'dbml-core-lite.js'),
    path.resolve(__dirname, '..', 'dist', 'vendor', 'dbml-core-lite.js'),
  ].find((file) => existsSync(file));
}

/** Where dbmlCoreLite() loads from: the built copy, or the whole of @dbml/core. */
export function dbmlCoreSource(): 'lite' | '@dbml/core' {
  return builtCopy() ? 'lite' : '@dbml/core';
}

let loaded: DbmlCoreLite | undefined;
export function dbmlCoreLite(): DbmlCoreLite {
  if (loaded) return loaded;
  const built = builtCopy();
  if (built) loaded = require(built) as DbmlCoreLite;
  else {
    const full = require('@dbml/core') as typeof Dbml;
    loaded = {
      parseMssql: (text) => full.Parser.parseMSSQLToJSONv2(text),
      exporter: full.exporter,
      parseDbml: (text) => full.Parser.parse(text, 'dbmlv2'),
    };
  }
  return loaded;
}
