// One HTTP/1.1 exchange over a plain TCP socket, byte for byte as given: a fetch or http.request client
// refuses the very requests a hostile client sends (raw NUL or invalid UTF-8 in the target or a header,
// conflicting lengths), so tests of what the server does with them write the bytes themselves. The
// request always carries `Connection: close`; the answer is read to the end of the connection.
import net from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target as sent (path and query), already percent-encoded or not, as the test wants. */
  target: Buffer | string;
  /** Header lines in order; a value may hold any bytes. Host and Connection are added. */
  headers: [string, Buffer | string][];
  body?: Buffer;
  /** Send Content-Length for the body (default true when there is a body). */
  contentLength?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends the request to 127.0.0.1:port; resolves with the answer, or rejects when none comes in `timeoutMs`. */
export function rawExchange(port: number, request: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const head: Buffer[] = [
    Buffer.from(`${request.method} `, 'latin1'),
    Buffer.isBuffer(request.target) ? request.target : Buffer.from(request.target, 'latin1'),
    Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`, 'latin1'),
  ];
  for (const [name, value] of request.headers)
    head.push(
      Buffer.from(`${name}: `, 'latin1'),
      Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8'),
      Buffer.from('\r\n'),
    );
  if (request.body && request.contentLength !== false)
    head.push(Buffer.from(`Content-Length: ${request.body.length}\r\n`));
  head.push(Buffer.from('\r\n'));
  const bytes = Buffer.concat([...head, ...(request.body ? [request.body] : [])]);

  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may answer and close before it has read everything (an over-long header): EPIPE and
    // ECONNRESET after an answer are not failures, the answer is what counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    // No half-close: an HTTP server may take the end of the request stream for an abort of the request.
    socket.write(bytes);
  });
}

function parseResponse(raw: Buffer): RawResponse {
  // Interim answers (100 Continue) come before the final one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw.toString('latin1', 0, 13))) {
    const end = raw.indexOf('\r\n\r\n');
    if (end < 0) break;
    raw = raw.subarray(end + 4);
  }
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no HTTP answer (${raw.length} bytes: ${raw.toString('latin1', 0, 80)})`);
  const [statusLine, ...lines] = raw.toString('latin1', 0, split).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!status) throw new Error(`not an HTTP status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(split + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let guard = 0; guard < 100_000 && at < data.length; guard++) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.toString('latin1', at, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
