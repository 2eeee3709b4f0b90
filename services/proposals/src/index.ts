export { DEFAULT_LIFETIME_SECONDS, type ProposalsConfig, readProposalsConfig } from './config';
export { PROPOSALS_CHANGED_SUBJECT } from './handlers';
export { type ProposalsService, startProposalsService } from './server';
export { sweepExpired } from './sweeper';
