// Process entry of the accounts service in cluster mode (`node services/accounts/dist/main.js`).
import { runServiceProcess } from '@dss/platform';
import { readAccountsConfig } from './config';
import { startAccountsService } from './server';

void runServiceProcess({
  name: 'accounts',
  readConfig: readAccountsConfig,
  start: startAccountsService,
});
