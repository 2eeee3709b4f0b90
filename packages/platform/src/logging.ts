// The one logger: pino JSON lines on stdout, each carrying the service name and, inside a request, the
// request id and the trace id of the active OpenTelemetry span. Secrets are redacted by key wherever they
// occur in a logged object, so a careless `logger.info({ req })` cannot leak a token.
import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';
import { env } from './config';
import { currentRequestContext } from './request-context';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Keys whose values are never logged, at any depth up to REDACT_DEPTH. */
export const REDACTED_KEYS = ['authorization', 'cookie', 'token', 'password', 'secret'] as const;
const REDACT_DEPTH = 5;

// pino's redaction takes explicit paths (no recursive wildcard), so list each key at every depth.
function redactPaths(): string[] {
  const paths: string[] = [];
  for (const key of REDACTED_KEYS) {
    for (let depth = 0; depth <= REDACT_DEPTH; depth++) paths.push(`${'*.'.repeat(depth)}${key}`);
  }
  return paths;
}

export interface LoggerOptions {
  /** Overrides LOG_LEVEL. */
  level?: (typeof LOG_LEVELS)[number];
  /** Where lines go; default stdout. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  const level = options.level ?? env.string('LOG_LEVEL', { default: 'info', allowed: LOG_LEVELS });
  const settings: pino.LoggerOptions = {
    level,
    base: { service },
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: redactPaths(), censor: '[redacted]' },
    mixin: requestFields,
  };
  // Synchronous stdout (pino's default) so the last lines before process.exit are not lost.
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

function requestFields(): Record<string, string> {
  const fields: Record<string, string> = {};
  const context = currentRequestContext();
  if (context) fields.request_id = context.requestId;
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext && isSpanContextValid(spanContext)) fields.trace_id = spanContext.traceId;
  return fields;
}
