export { readWebConfig, type WebConfig } from './config';
export { startWebApp, type WebApp } from './server';
