'use strict';
// ensureRedis / ensureNats against real servers: with no URL in the environment and nothing on the "default
// port" (pointed at a free port), they start redis-server / nats-server from PATH, and stop them again.
const { spawn } = require('node:child_process');
const { ensureRedis, ensureNats, ensurePostgres, InfraError, provideBinary } = require('../lib/infra');
const { freePort, redisPing, natsInfo, waitFor } = require('../lib/net');
const { findExecutable } = require('../lib/system');

const quiet = { env: {}, install: false, logger: () => {} };

/** @param {string} url */
const portOf = (url) => Number(new URL(url).port);

describe('ensureRedis', () => {
  test('starts redis-server on a free port when nothing answers on the default port, then stops it', async () => {
    const service = await ensureRedis({ ...quiet, defaultPort: await freePort() });
    try {
      expect(service.origin).toBe('started');
      expect(service.where).toMatch(/^127\.0\.0\.1:\d+ \(started .*redis-server, pid \d+\)$/);
      expect(await redisPing('127.0.0.1', portOf(service.url))).toBe('+PONG');

      // The server we just started now counts as "already running" on its port.
      const again = await ensureRedis({ ...quiet, defaultPort: portOf(service.url) });
      expect(again).toMatchObject({ origin: 'running', url: service.url });
      expect(again.stop).toBeUndefined();
    } finally {
      await service.stop?.();
    }
    expect(await redisPing('127.0.0.1', portOf(service.url), 300)).toBeNull();
  }, 30_000);

  test('an environment URL that does not answer fails with one line instead of falling back', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const attempt = ensureRedis({ ...quiet, env: { DSS_TEST_REDIS_URL: url } });
    await expect(attempt).rejects.toThrow(InfraError);
    await expect(attempt).rejects.toThrow(
      /^Redis at DSS_TEST_REDIS_URL \(127\.0\.0\.1:\d+\) does not answer PING$/,
    );
  });
});

describe('ensureNats', () => {
  test('starts nats-server with JetStream when the default port has a NATS without it', async () => {
    const bare = findExecutable('nats-server');
    if (!bare) throw new Error('nats-server must be installed on this machine for this test');
    const barePort = await freePort();
    // A NATS without JetStream does not count: the importer's work queue needs it.
    const plain = spawn(bare, ['-a', '127.0.0.1', '-p', String(barePort)], { stdio: 'ignore' });
    try {
      await waitFor(() => natsInfo('127.0.0.1', barePort, 300), {
        timeoutMs: 10_000,
        what: 'plain nats-server',
      });
      const service = await ensureNats({ ...quiet, defaultPort: barePort });
      try {
        expect(service.origin).toBe('started');
        expect(portOf(service.url)).not.toBe(barePort);
        expect(await natsInfo('127.0.0.1', portOf(service.url))).toMatchObject({ jetstream: true });
      } finally {
        await service.stop?.();
      }
      expect(await natsInfo('127.0.0.1', portOf(service.url), 300)).toBeNull();
    } finally {
      plain.kill('SIGTERM');
    }
  }, 30_000);
});

describe('ensurePostgres', () => {
  test('an environment URL that does not answer fails with one line', async () => {
    const env = { DSS_TEST_DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` };
    await expect(ensurePostgres({ ...quiet, env })).rejects.toThrow(
      /^PostgreSQL at DSS_TEST_DATABASE_URL \(127\.0\.0\.1:\d+\) does not answer: .*ECONNREFUSED/,
    );
  });
});

describe('provideBinary', () => {
  test('with nothing to start and no way to install, says what is missing and how to provide it', async () => {
    const missing =
      'Redis is required: set DSS_TEST_REDIS_URL, start redis-server on 127.0.0.1:6379, or install it';
    await expect(
      provideBinary({
        binary: 'dss-no-such-server',
        pkg: 'redis-server',
        install: false,
        logger: () => {},
        missing,
      }),
    ).rejects.toThrow(`${missing} (apt-get install redis-server)`);
  });
});
