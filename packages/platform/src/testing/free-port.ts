// A loopback port nothing listens on right now, for a test that must know an address before the server
// behind it starts (the web app's own URL in its config, a broker it starts and stops) or that needs an
// address refusing connections. The kernel may hand a port just released to the next probe, so a process
// never gets the same port twice (callers that take several ports before starting anything would collide
// otherwise). Another process could take it meanwhile; on a test machine that is rare enough to accept.
import { createServer } from 'node:net';

const handedOut = new Set<number>();
/** Probes before giving up: far more than a test ever needs, so only a broken machine reaches it. */
const MAX_PROBES = 1_000;

export async function freePort(): Promise<number> {
  for (let probe = 0; probe < MAX_PROBES; probe++) {
    const port = await unusedPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`freePort: no port this process has not handed out already after ${MAX_PROBES} probes`);
}

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
