// The NATS bus must survive its server going away: readiness turns false, the connection retries
// forever, and publishing, fan-out and work queues work again once the server is back. The test runs
// its own nats-server (on a free port, with its own storage) so it can stop and restart it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BusMessage, createEventBus, type EventBus } from '../src/bus';
import { freePort } from '../src/testing';
import { recordingLogger, waitUntil } from './bus-helpers';

const NATS_SERVER = process.env.DSS_NATS_SERVER_BIN ?? 'nats-server';

describe('EventBus (nats) › recovery', () => {
  let storageDir: string;
  let emptyStorageDir: string;
  let port: number;
  let server: ChildProcess | undefined;
  let bus: EventBus | undefined;

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'dss-nats-'));
    emptyStorageDir = mkdtempSync(join(tmpdir(), 'dss-nats-empty-'));
    port = await freePort();
  });

  afterAll(async () => {
    await bus?.close();
    await stopServer(server);
    for (const dir of [storageDir, emptyStorageDir]) rmSync(dir, { recursive: true, force: true });
  });

  it('publishes and consumes again after the NATS server restarts', async () => {
    server = await startServer(port, storageDir);
    const logger = recordingLogger();
    bus = await createEventBus({ natsUrl: `nats://127.0.0.1:${port}`, logger, name: 'recovery-test' });
    const events: BusMessage[] = [];
    const jobs: BusMessage[] = [];
    await bus.subscribe('diagrams.changed', (message) => void events.push(message));
    await bus.consume('importers', 'importer.jobs', async (message) => void jobs.push(message));
    await bus.publish('diagrams.changed', { phase: 'before' });
    await bus.publish('importer.jobs', { phase: 'before' });
    await waitUntil('both arrive before the restart', () => events.length === 1 && jobs.length === 1);

    await stopServer(server);
    await waitUntil('readiness reports the outage', () => !bus!.isHealthy());
    await expect(bus.publish('diagrams.changed', { phase: 'outage' })).rejects.toThrow();
    server = await startServer(port, storageDir);
    await waitUntil('the bus reconnects', () => bus!.isHealthy(), 15_000);

    await bus.publish('diagrams.changed', { phase: 'after' });
    await bus.publish('importer.jobs', { phase: 'after' });

    await waitUntil('the subscriber receives again', () => events.length === 2, 15_000);
    await waitUntil('the queue consumer receives again', () => jobs.length === 2, 15_000);
    expect(events.map((m) => m.data)).toEqual([{ phase: 'before' }, { phase: 'after' }]);
    expect(jobs.map((m) => m.data)).toEqual([{ phase: 'before' }, { phase: 'after' }]);
    expect(logger.lines.filter((line) => line.message?.includes('disconnected'))).toHaveLength(1);
  }, 60_000);

  it('recreates its streams and queue consumer when the server comes back without its storage', async () => {
    await bus?.close();
    await stopServer(server);
    server = await startServer(port, storageDir);
    bus = await createEventBus({ natsUrl: `nats://127.0.0.1:${port}`, logger: recordingLogger() });
    const jobs: BusMessage[] = [];
    await bus.consume('importers', 'importer.jobs', async (message) => void jobs.push(message));
    await bus.publish('importer.jobs', { phase: 'before' });
    await waitUntil('the job arrives before the restart', () => jobs.length === 1);

    await stopServer(server);
    await waitUntil('readiness reports the outage', () => !bus!.isHealthy());
    server = await startServer(port, emptyStorageDir);
    await waitUntil('the bus reconnects', () => bus!.isHealthy(), 15_000);
    await bus.publish('importer.jobs', { phase: 'after' });

    await waitUntil('the queue consumer receives again', () => jobs.length === 2, 15_000);
    expect(jobs.map((m) => m.data)).toEqual([{ phase: 'before' }, { phase: 'after' }]);
  }, 60_000);
});

async function startServer(port: number, storageDir: string): Promise<ChildProcess> {
  const child = spawn(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storageDir], {
    stdio: 'ignore',
  });
  await waitUntil('nats-server accepts connections', () => canConnect(port), 10_000);
  return child;
}

async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
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
