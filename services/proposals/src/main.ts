// Process entry of the proposals service in cluster mode (`node services/proposals/dist/main.js`).
import { runServiceProcess } from '@dss/platform';
import { readProposalsConfig } from './config';
import { startProposalsService } from './server';

void runServiceProcess({ name: 'proposals', readConfig: readProposalsConfig, start: startProposalsService });
