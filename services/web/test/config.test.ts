import { ConfigError } from '@dss/platform';
import { readWebConfig } from '../src/config';

describe('readWebConfig()', () => {
  it('defaults to port 8081 on all interfaces, app URL http://localhost:8081 and a key file under the data dir', () => {
    const config = readWebConfig({ DSS_DATA_DIR: '/tmp/dss-data' });
    expect(config).toMatchObject({
      httpPort: 8081,
      httpHost: '0.0.0.0',
      appUrl: 'http://localhost:8081',
      sessionKeyFile: '/tmp/dss-data/keys/session-key',
    });
    expect(config.sessionKey).toBeUndefined();
  });

  it('refuses a DSS_SESSION_KEY shorter than 32 characters, naming the variable', () => {
    expect(() => readWebConfig({ DSS_SESSION_KEY: 'short' })).toThrow(ConfigError);
    expect(() => readWebConfig({ DSS_SESSION_KEY: 'short' })).toThrow(/DSS_SESSION_KEY/);
  });

  it('refuses an app URL that is not http or https', () => {
    expect(() => readWebConfig({ DSS_APP_URL: 'ftp://example.test' })).toThrow(/DSS_APP_URL/);
  });
});
