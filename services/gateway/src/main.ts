// Process entry of the gateway in cluster mode (`node services/gateway/dist/main.js`).
import { runServiceProcess } from '@dss/platform';
import { readGatewayConfig } from './config';
import { startGateway } from './server';

void runServiceProcess({
  name: 'gateway',
  readConfig: readGatewayConfig,
  start: startGateway,
});
