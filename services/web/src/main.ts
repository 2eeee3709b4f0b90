// Process entry of the web app in cluster mode (`node services/web/dist/main.js`).
import { runServiceProcess } from '@dss/platform';
import { readWebConfig } from './config';
import { startWebApp } from './server';

void runServiceProcess({
  name: 'web',
  readConfig: readWebConfig,
  start: startWebApp,
});
