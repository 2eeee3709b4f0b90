// A PostgreSQL server of a test's own, which it may stop and start again: the embedded server in a data
// directory the test chooses, on a free port (never 5432), run by scratch-postgres-server.js in a child
// process. Never the machine's shared server.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const SERVER_SCRIPT = path.join(__dirname, 'scratch-postgres-server.js');
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 20_000;

export interface ScratchPostgres {
  /** URL of its `dss` database. */
  url: string;
  port: number;
  /** Fast shutdown (ends sessions, writes a checkpoint); resolves once the server has exited. */
  stop(): Promise<void>;
}

/** Starts the server on `dataDir` (initialised on first use); on `port` when given (a restart keeps it). */
export function startScratchPostgres(dataDir: string, port?: number): Promise<ScratchPostgres> {
  const child = spawn(process.execPath, [SERVER_SCRIPT, dataDir, ...(port ? [String(port)] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  });
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`the scratch PostgreSQL did not start: ${why}\n${output}`));
    };
    const timer = setTimeout(() => fail(`not ready within ${START_TIMEOUT_MS / 1000}s`), START_TIMEOUT_MS);
    let line = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      line += chunk.toString();
      const end = line.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      const started = JSON.parse(line.slice(0, end)) as { url: string; port: number; reused: boolean };
      if (started.reused) {
        fail(`a server was already running on ${dataDir}`);
        return;
      }
      resolve({ url: started.url, port: started.port, stop: () => stopServer(child) });
    });
    child.once('exit', (code, signal) => fail(`it exited (${code ?? signal})`));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    // Bounded: a server process that does not end in time is killed (its cleanup hook still signals PostgreSQL).
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
