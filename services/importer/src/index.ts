export { type ImporterConfig, readImporterConfig } from './config';
export { runConversion, workerEntry } from './run-conversion';
export { type ImporterService, type ImportJob, startImporterService } from './server';
