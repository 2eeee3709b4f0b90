export { type AccountsConfig, readAccountsConfig } from './config';
export { TEAM_CHANGED_SUBJECT, TOKEN_REVOKED_SUBJECT } from './handlers';
export { type AccountsService, startAccountsService } from './server';
