// Introspection: a live database's catalog read into a diagram document, on the machine that runs the
// CLI. Credentials stay here: errors are one line without them, and the document names the source only
// by host, port and database.
import { SchemaBuilder } from '@dss/ddl';
import type { DiagramDocument } from '@dss/schema';
import { readMysql } from './mysql';
import { readPostgres } from './postgres';
import { type DatabaseTarget, databaseTarget, IntrospectionError, withoutCredentials } from './target';

export { type DatabaseTarget, databaseTarget, IntrospectionError } from './target';

export interface Introspection {
  document: DiagramDocument;
  /** Things the diagram leaves out (views, expression indexes, unknown types), one line each. */
  warnings: string[];
  source: string;
}

/** The privileges introspection needs, printed by `--help` and with a permission error. */
export const REQUIRED_PRIVILEGES =
  'PostgreSQL: CONNECT on the database and USAGE on its schemas (it reads pg_catalog in a READ ONLY transaction); ' +
  'MySQL/MariaDB: SELECT on the schema (it reads information_schema only)';

export async function introspect(url: string): Promise<Introspection> {
  const target = databaseTarget(url);
  return introspectWith(target, (builder) =>
    (target.driver === 'pgsql' ? readPostgres : readMysql)(target, builder),
  );
}

/** Runs a catalog reader into a fresh collector; any failure becomes one line without credentials. */
export async function introspectWith(
  target: DatabaseTarget,
  read: (builder: SchemaBuilder) => Promise<string[]>,
): Promise<Introspection> {
  const builder = new SchemaBuilder(target.driver);
  let warnings: string[];
  try {
    warnings = await read(builder);
  } catch (error) {
    throw connectionError(error, target);
  }
  if (builder.tables.size === 0)
    throw new IntrospectionError(
      `${target.description} has no tables this user can see (${REQUIRED_PRIVILEGES})`,
    );
  const document = builder.toDocument();
  warnings.push(...builder.warnings.map((warning) => warning.message));
  return { document, warnings, source: target.description };
}

/** One line naming what went wrong and where, without the URL's credentials. */
function connectionError(error: unknown, target: DatabaseTarget): IntrospectionError {
  const { code, message } = error as { code?: string; message?: string };
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'host not found'
        : code === 'ETIMEDOUT'
          ? 'timed out'
          : code === '28P01' || code === 'ER_ACCESS_DENIED_ERROR' || code === '28000'
            ? 'authentication failed (check the user and password)'
            : code === '42501' ||
                code === 'ER_TABLEACCESS_DENIED_ERROR' ||
                code === 'ER_DBACCESS_DENIED_ERROR'
              ? `permission denied (${REQUIRED_PRIVILEGES})`
              : (message ?? String(error)).split('\n')[0];
  return new IntrospectionError(withoutCredentials(`cannot read ${target.description}: ${reason}`, target));
}
