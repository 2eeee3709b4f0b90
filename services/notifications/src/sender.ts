// One outbound webhook request: POST to the checked address (the host name kept for TLS and the Host
// header), 10 s for the whole exchange, redirects not followed (a 3xx is a failed attempt), and at most
// 1 KB of the answer kept for the delivery log; the rest of the body is not read.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './outbound-guard';

export const SEND_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendResult {
  /** The receiver's status, or null when no answer came (refused, timed out, reset). */
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  excerpt: string;
}

export function isSuccess(result: SendResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}

export function sendWebhook(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  // Connect to the address that was checked, whatever the name resolves to now.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ ...result, latencyMs: elapsed() });
    };
    const request = transport.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'dss-webhooks/1',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            statusCode: response.statusCode ?? null,
            error: null,
            excerpt: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'),
          });
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(
      () => finish({ statusCode: null, error: `no answer within ${SEND_TIMEOUT_MS / 1000} s`, excerpt: '' }),
      SEND_TIMEOUT_MS,
    );
    request.on('error', (error) =>
      finish({ statusCode: null, error: error.message.slice(0, 200), excerpt: '' }),
    );
    request.end(body);
  });
}
