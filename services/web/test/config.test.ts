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

  it('warms the drawing thread up unless DSS_WEB_DRAWING_WARM_UP is false, and refuses another word', () => {
    expect(readWebConfig({}).drawingWarmUp).toBe(true);
    expect(readWebConfig({ DSS_WEB_DRAWING_WARM_UP: 'false' }).drawingWarmUp).toBe(false);
    expect(() => readWebConfig({ DSS_WEB_DRAWING_WARM_UP: 'later' })).toThrow(/DSS_WEB_DRAWING_WARM_UP/);
  });

  it('refuses a DSS_SESSION_KEY shorter than 32 characters, naming the variable', () => {
    expect(() => readWebConfig({ DSS_SESSION_KEY: 'short' })).toThrow(ConfigError);
    expect(() => readWebConfig({ DSS_SESSION_KEY: 'short' })).toThrow(/DSS_SESSION_KEY/);
  });

  it('takes every service it calls, the importer too, as a list of replicas (ipv4: targets, round-robin)', () => {
    const replicas = 'ipv4:127.0.0.1:20726,127.0.0.1:22823';
    const config = readWebConfig({
      DSS_ACCOUNTS_GRPC_ADDR: replicas,
      DSS_DIAGRAMS_GRPC_ADDR: replicas,
      DSS_PROPOSALS_GRPC_ADDR: replicas,
      DSS_NOTIFICATIONS_GRPC_ADDR: replicas,
      DSS_IMPORTER_GRPC_ADDR: replicas,
    });
    expect([
      config.accountsAddress,
      config.diagramsAddress,
      config.proposalsAddress,
      config.notificationsAddress,
      config.importerAddress,
    ]).toEqual(Array(5).fill(replicas));
  });

  it('refuses an app URL that is not http or https', () => {
    expect(() => readWebConfig({ DSS_APP_URL: 'ftp://example.test' })).toThrow(/DSS_APP_URL/);
  });
});
