// A loopback port nothing listens on right now, for a test that must know an address before the server
// behind it starts (the web app's own URL in its config, a broker it starts and stops) or that needs an
// address refusing connections. Another process could take it meanwhile; on a test machine that is rare
// enough to accept.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
