// A loopback port nothing listens on right now, for a test that must know an address before the server
// behind it starts (the web app's own URL in its config, a broker it starts and stops) or that needs an
// address refusing connections. Ports come from below the kernel's ephemeral range (Linux: 32768-60999,
// /proc/sys/net/ipv4/ip_local_port_range): a port from that range can become the source port of any outgoing
// connection on the machine between the probe and the server's own bind (a browser test's web app failed
// so, `listen EADDRINUSE`, while other test files ran beside it). A process never gets the same port twice
// (callers that take several ports before starting anything would collide otherwise). Another test process
// could pick the same one at the same moment; among 12,000 ports picked at random that is rare enough to
// accept.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const handedOut = new Set<number>();
/** Probes before giving up: far more than a test ever needs, so only a broken machine reaches it. */
const MAX_PROBES = 1_000;
const LOWEST = 20_000;
const HIGHEST = 32_000;

export async function freePort(): Promise<number> {
  const below = Math.min(HIGHEST, ephemeralFloor());
  for (let probe = 0; probe < MAX_PROBES; probe++) {
    const port = LOWEST + Math.floor(Math.random() * (below - LOWEST));
    if (handedOut.has(port)) continue;
    // Held before the probe, so calls running at once never hand out the same port.
    handedOut.add(port);
    if (await canListen(port)) return port;
    handedOut.delete(port);
  }
  throw new Error(`freePort: no free port between ${LOWEST} and ${below} after ${MAX_PROBES} probes`);
}

/** The first port of the kernel's ephemeral range; Linux's default where the range cannot be read. */
function ephemeralFloor(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return first > LOWEST + 1_000 ? first : HIGHEST;
  } catch {
    return HIGHEST;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
