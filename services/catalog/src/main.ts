// Process entry of the catalog service in cluster mode (`node services/catalog/dist/main.js`).
import { runServiceProcess } from '@dss/platform';
import { readCatalogConfig } from './config';
import { startCatalogService } from './server';

void runServiceProcess({ name: 'catalog', readConfig: readCatalogConfig, start: startCatalogService });
