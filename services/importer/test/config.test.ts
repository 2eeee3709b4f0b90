// The importer's configuration: which dialects its workers warm up.
import { ConfigError } from '@dss/platform';
import { readImporterConfig } from '../src/config';

describe('importer configuration', () => {
  it('warms PostgreSQL and MySQL by default and leaves SQL Server to its first job', () => {
    const config = readImporterConfig({});
    expect(config.warmUp).toEqual(['pgsql', 'mysql']);
    expect(config.sqlsrvIdleMs).toBe(300_000);
  });

  it.each([
    ['true', ['pgsql', 'mysql', 'sqlsrv']],
    ['false', []],
    ['sqlsrv, pgsql', ['pgsql', 'sqlsrv']],
    ['MYSQL', ['mysql']],
  ])('reads DSS_IMPORT_WARM_UP=%s', (value, dialects) => {
    expect(readImporterConfig({ DSS_IMPORT_WARM_UP: value }).warmUp).toEqual(dialects);
  });

  it('refuses an unknown dialect in DSS_IMPORT_WARM_UP with a message naming the variable', () => {
    expect(() => readImporterConfig({ DSS_IMPORT_WARM_UP: 'pgsql,oracle' })).toThrow(ConfigError);
    expect(() => readImporterConfig({ DSS_IMPORT_WARM_UP: 'pgsql,oracle' })).toThrow(/DSS_IMPORT_WARM_UP/);
  });
});
