export { createDssClient, type DssClient, type DssClientOptions } from './client';
export { DSS_ERROR_CODES, DssApiError, type DssErrorCode, isDssApiError } from './errors';
export { DEFAULT_RETRY, type RetryOptions } from './retry';
export type * from './types';
export {
  DEFAULT_POLL_AFTER_SECONDS,
  DssWaitTimeoutError,
  type ImportWaitOptions,
  type ProposalWaitOptions,
} from './waiting';
