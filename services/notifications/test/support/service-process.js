// The notifications service as a process of its own (built dist/), on the test's NATS namespace, so a test
// can SIGKILL it mid-delivery. Reads the same variables as main.ts plus TEST_NATS_NAMESPACE.

const path = require('node:path');
const { createEventBus, createLogger, createMetrics } = require('@dss/platform');
const { readNotificationsConfig } = require(path.resolve(__dirname, '../../dist/config.js'));
const { startNotificationsService } = require(path.resolve(__dirname, '../../dist/server.js'));

async function main() {
  const logger = createLogger('notifications', { level: 'silent' });
  const config = readNotificationsConfig(process.env);
  const bus = await createEventBus({
    natsUrl: config.natsUrl,
    logger,
    namespace: process.env.TEST_NATS_NAMESPACE,
    name: 'test-notifications-process',
  });
  const metrics = createMetrics('notifications', { processMetrics: false });
  await startNotificationsService({ config, logger, metrics, bus });
  process.stdout.write('ready\n');
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
