// Process entry of the importer service in cluster mode (`node services/importer/dist/main.js`).
import { runServiceProcess } from '@dss/platform';
import { readImporterConfig } from './config';
import { startImporterService } from './server';

void runServiceProcess({ name: 'importer', readConfig: readImporterConfig, start: startImporterService });
