// Process entry of the notifications service in cluster mode (`node services/notifications/dist/main.js`).
import { runServiceProcess } from '@dss/platform';
import { readNotificationsConfig } from './config';
import { startNotificationsService } from './server';

void runServiceProcess({
  name: 'notifications',
  readConfig: readNotificationsConfig,
  start: startNotificationsService,
});
