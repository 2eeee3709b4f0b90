// A nats-server of the test's own (free port, own storage directory), so a fault test can stop, restart or
// cut it, or processes can use the default stream names, without touching the shared NATS on 4222 that
// other tests use. The binary is found as the tooling finds it (scripts/lib/system.js): DSS_NATS_SERVER_BIN,
// PATH, then the sbin folders Debian uses.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

export function findNatsServer(): string {
  const explicit = process.env['DSS_NATS_SERVER_BIN'];
  if (explicit) return explicit;
  const dirs = (process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of [...dirs, '/usr/local/sbin', '/usr/sbin', '/sbin']) {
    const candidate = path.join(dir, 'nats-server');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(
    'nats-server not found (PATH, /usr/local/sbin, /usr/sbin, /sbin): this test starts its own server; ' +
      'install nats-server (Debian: apt-get install nats-server) or set DSS_NATS_SERVER_BIN',
  );
}

export class OwnNats {
  private child: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    private storageDir: string,
    private readonly binary: string,
  ) {}

  static async start(): Promise<OwnNats> {
    const nats = new OwnNats(
      await freePort(),
      mkdtempSync(path.join(tmpdir(), 'dss-nats-')),
      findNatsServer(),
    );
    await nats.resume();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts the server again on the same port and storage (JetStream keeps its streams and messages). */
  async resume(): Promise<void> {
    this.child = spawn(
      this.binary,
      ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storageDir],
      {
        stdio: 'ignore',
      },
    );
    await waitFor('nats-server accepts connections', () => canConnect(this.port), 15_000);
  }

  /** Starts the server again on the same port with empty storage, as if its volume had been lost. */
  async resumeWithoutStorage(): Promise<void> {
    rmSync(this.storageDir, { recursive: true, force: true });
    this.storageDir = mkdtempSync(path.join(tmpdir(), 'dss-nats-'));
    await this.resume();
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.storageDir, { recursive: true, force: true });
  }
}

/** Polls until `check` returns true; fails naming `what` when `timeoutMs` passes first. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}
