// Requests Node's HTTP parser refuses before any route sees them (a bad chunk, both Content-Length and
// Transfer-Encoding, headers over the size limit, a raw NUL in a header) and expectations it does not
// meet (`Expect: nonsense`). Node answers those with a bare status line and no body; here they get the
// spec's error shape like every other refusal.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

function errorBody(message: string, code = 'request_failed'): string {
  return JSON.stringify({ error: { code, message } });
}

/**
 * The spec's 400 is `invalid_request` for a body that is not a JSON object, which is what a POST whose
 * framing cannot be read sends; other 400s here are `request_failed`. The parser keeps the bytes it read.
 */
function codeFor(status: number, error: { rawPacket?: unknown }): string {
  const start = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1', 0, 5) : '';
  return status === 400 && (start === 'POST ' || start === 'PATCH') ? 'invalid_request' : 'request_failed';
}

function statusAndMessage(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'the request headers are too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'the chunk extensions of the request are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'the request took too long to arrive'];
    default:
      return [400, 'the request is not valid HTTP/1.1'];
  }
}

/** Answers what the parser refuses, and unmet expectations, with a JSON error; closes the connection. */
export function answerMalformedRequestsAsJson(server: Server): void {
  // How much a socket had written once it said `100 Continue`: a body that then fails to parse still
  // gets its final answer, since nothing but that interim answer was sent.
  const interimBytes = new WeakMap<Duplex, number>();
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    res.writeContinue();
    interimBytes.set(req.socket, req.socket.bytesWritten);
    server.emit('request', req, res);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // As Node's own handler: answer only when nothing of a response has been written yet.
    const written = (socket.bytesWritten ?? 0) - (interimBytes.get(socket) ?? 0);
    if (error.code === 'ECONNRESET' || !socket.writable || written > 0) {
      socket.destroy();
      return;
    }
    const [status, message] = statusAndMessage(error.code);
    const body = errorBody(message, codeFor(status, error as { rawPacket?: unknown }));
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n' +
        body,
    );
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    res.shouldKeepAlive = false;
    const body = errorBody('the only expectation this server meets is Expect: 100-continue');
    res.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
    res.end(body);
  });
}
