// A bus handler that fails because a dependency is out of reach (its database restarting, another service
// answering `unavailable`) fails the same way for every message until the outage ends. Such failures are
// logged through an OutageLog (the first, then one line per quiet period, no stack); any other failure is
// logged with its stack, as a fault to look into.
import { isServiceError } from '../errors';
import { databaseUnavailable } from '../grpc/error-status';
import { OutageLog } from '../outage-log';
import type { BusLogger } from './types';

/** True when the error says a dependency is unavailable rather than that the handler is wrong. */
export function isDependencyOutage(error: unknown): boolean {
  return databaseUnavailable(error) || (isServiceError(error) && error.code === 'unavailable');
}

/** `report(error, fields)`: one handler failure under `message`. */
export function handlerFailureLog(
  logger: BusLogger,
  message: string,
  level: 'warn' | 'error',
): (error: unknown, fields: Record<string, unknown>) => void {
  const outage = new OutageLog(logger, `${message}: a dependency is unavailable`);
  return (error, fields) => {
    if (isDependencyOutage(error)) {
      const { message: reason, code } = error as { message?: string; code?: unknown };
      outage.failed({ ...fields, reason, ...(typeof code === 'string' ? { code } : {}) });
    } else logger[level]({ ...fields, err: error }, message);
  };
}
