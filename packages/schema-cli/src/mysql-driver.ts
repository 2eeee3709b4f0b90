// mysql2 is a dependency of the developer's checkout (`npm ci`), not of the service image: only MySQL and
// MariaDB introspection and `dss check` against a MySQL database use it, so it is loaded when they run.
import type * as Mysql from 'mysql2/promise';
import { UsageError } from './usage-error';

export async function loadMysql(): Promise<typeof Mysql> {
  try {
    return await import('mysql2/promise');
  } catch {
    throw new UsageError(
      'reading a MySQL or MariaDB database needs the mysql2 package: run the CLI from a checkout after `npm ci`',
    );
  }
}
