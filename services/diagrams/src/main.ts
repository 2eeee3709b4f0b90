// Process entry of the diagrams service in cluster mode (`node services/diagrams/dist/main.js`).
import { runServiceProcess } from '@dss/platform';
import { readDiagramsConfig } from './config';
import { startDiagramsService } from './server';

void runServiceProcess({ name: 'diagrams', readConfig: readDiagramsConfig, start: startDiagramsService });
