import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from '../src/testing';

describe('freePort()', () => {
  it('should never hand out the same port twice in one process, each one free to listen on', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 200; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports.at(-1), '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('should hand out ports below the ephemeral range, which outgoing connections never take', async () => {
    const floor = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(floor);
    }
  });
});
