// Where a live database is: the driver from the URL's scheme, and a description of it that carries no
// credentials (for output, proposal titles and errors). The URL itself is never printed or sent anywhere.
import type { Driver } from '@dss/schema';

export interface DatabaseTarget {
  driver: Extract<Driver, 'pgsql' | 'mysql'>;
  url: URL;
  /** `postgres://db.example:5432/shop`: host, port and database, never a user name or password. */
  description: string;
}

const SCHEMES: Record<string, DatabaseTarget['driver']> = {
  'postgres:': 'pgsql',
  'postgresql:': 'pgsql',
  'mysql:': 'mysql',
  'mariadb:': 'mysql',
};

/** Thrown for a problem the user can fix; printed as one line, never with a stack. */
export class IntrospectionError extends Error {}

export function databaseTarget(raw: string): DatabaseTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new IntrospectionError(
      '--url is not a URL (postgres://user@host:5432/db or mysql://user@host:3306/db)',
    );
  }
  const driver = SCHEMES[url.protocol];
  if (!driver)
    throw new IntrospectionError(
      `--url must start with postgres://, postgresql://, mysql:// or mariadb://, not ${url.protocol}//`,
    );
  if (url.pathname.replace(/^\//, '') === '')
    throw new IntrospectionError('--url must name the database (…/dbname)');
  const port = url.port ? `:${url.port}` : '';
  return { driver, url, description: `${url.protocol}//${url.hostname}${port}${url.pathname}` };
}

/** Removes the URL's password and user from any text a driver produced (some echo the connection string). */
export function withoutCredentials(text: string, target: DatabaseTarget): string {
  let safe = text.replaceAll(target.url.href, target.description);
  for (const secret of [target.url.password, decodeURIComponent(target.url.password)])
    if (secret.length >= 3) safe = safe.replaceAll(secret, '***');
  return safe;
}
