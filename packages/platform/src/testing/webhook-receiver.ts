// An HTTP receiver of webhook deliveries on 127.0.0.1 for tests (the notifications service's own tests and
// the container e2e's): it records every request and answers each with the status `answer` picks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * The receiver: records every request; `answer` picks each status (200 by default), or holds the answer
 * until its promise settles, or never answers ('hang').
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  answer: (request: ReceivedRequest) => number | 'hang' | Promise<number> = () => 200;
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.received.push(request);
      const status = this.answer(request);
      if (status === 'hang') return;
      void Promise.resolve(status).then((code) => {
        if (!res.destroyed) res.writeHead(code, { 'content-type': 'text/plain' }).end(`answered ${code}`);
      });
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Bodies as parsed JSON, in the order they arrived. */
  events(): { id: string; type: string; data: Record<string, unknown> }[] {
    return this.received.map((request) => JSON.parse(request.body));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
