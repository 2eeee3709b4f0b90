// What every tool gets: the REST client (with the caller's token), where the web app is, and the
// instrumentation that counts and times each call without ever seeing its arguments.
import type { DssClient } from '@dss/client';
import type { Logger, Metrics } from '@dss/platform';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ConversionPool } from '@dss/ddl';
import { resultOfError } from '../tool-results';

export interface ToolContext {
  client: DssClient;
  appUrl: string;
  importWaitMs: number;
  /** visualize_schema's DDL conversion, one worker thread for the whole process. */
  ddlPool: ConversionPool;
  logger: Logger;
  metrics: Metrics;
}

/**
 * Runs a tool: any thrown error becomes an `isError` result with the REST error code; the outcome is
 * counted (`dss_mcp_tool_calls_total{tool,outcome}`) and timed. Arguments are never logged: they may
 * carry a whole schema.
 */
export function instrumented<Args>(
  name: string,
  context: ToolContext,
  run: (args: Args) => Promise<CallToolResult>,
): (args: Args) => Promise<CallToolResult> {
  const calls = context.metrics.counter('mcp_tool_calls_total', 'MCP tool calls by outcome', [
    'tool',
    'outcome',
  ]);
  const duration = context.metrics.histogram('mcp_tool_duration_seconds', 'MCP tool call duration', ['tool']);
  return async (args) => {
    const stopTimer = duration.startTimer({ tool: name });
    let result: CallToolResult;
    let outcome: string;
    try {
      result = await run(args);
      outcome = result.isError ? 'tool_error' : 'ok';
    } catch (error) {
      const failure = resultOfError(error);
      result = failure.result;
      outcome = failure.code;
      if (failure.code === 'internal') context.logger.error({ err: error, tool: name }, 'tool call failed');
    }
    stopTimer();
    calls.inc({ tool: name, outcome });
    context.logger.debug({ tool: name, outcome }, 'tool call');
    return result;
  };
}
