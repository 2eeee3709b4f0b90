export { type ImporterConfig, readImporterConfig } from './config';
export { type ImporterService, type ImportJob, startImporterService } from './server';
