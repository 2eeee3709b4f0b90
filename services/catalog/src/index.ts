export { type CatalogConfig, readCatalogConfig } from './config';
export { buildRepresentations, type Representation } from './representations';
export { type CatalogService, startCatalogService } from './server';
