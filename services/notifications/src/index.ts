export { type NotificationsConfig, readNotificationsConfig } from './config';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './events';
export { type NotificationsService, startNotificationsService } from './server';
