// WorkerThread against real worker threads: an entry file written for the test serves requests with
// serveRequests (the package's compiled module, as the product's entries load it).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkerThread } from '../src/worker-thread';

const compiled = path.resolve(__dirname, '..', 'dist', 'worker-thread.js');
let directory: string;

/** An entry file whose handler is `handler` (JavaScript source of a function of the request). */
function entry(name: string, handler: string): string {
  const file = path.join(directory, `${name}.js`);
  fs.writeFileSync(
    file,
    `const { serveRequests } = require(${JSON.stringify(compiled)});\nserveRequests(${handler});\n`,
  );
  return file;
}

beforeAll(() => {
  if (!fs.existsSync(compiled)) throw new Error(`${compiled} is missing: build @dss/platform first`);
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dss-worker-thread-'));
});

afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

/** A thread serving `handler` (JavaScript source), closed after `use` ends. */
async function withThread(
  name: string,
  handler: string,
  use: (thread: WorkerThread<number, number>) => Promise<void>,
  timeoutMs = 30_000,
): Promise<void> {
  const thread = new WorkerThread<number, number>({
    file: entry(name.replace(/\W+/g, '-'), handler),
    idleMs: 60_000,
    timeoutMs,
    name,
  });
  try {
    await use(thread);
  } finally {
    thread.close();
  }
}

/** Spins for `n` ms: a request that never yields, as a stuck drawing would. */
const SPIN = '(n) => { const end = Date.now() + n; while (Date.now() < end); return n; }';

describe('WorkerThread', () => {
  it('answers each request with the thread’s result for it', () =>
    withThread('the doubler', '(n) => n * 2', async (thread) => {
      expect(await Promise.all([thread.ask(1), thread.ask(21), thread.ask(-4)])).toEqual([2, 42, -8]);
    }));

  it('rejects with the handler’s message, named after the thread, and keeps serving', () =>
    withThread(
      'the picky thread',
      '(n) => { if (n < 0) throw new Error("no negatives"); return n; }',
      async (thread) => {
        await expect(thread.ask(-1)).rejects.toThrow('the picky thread failed: no negatives');
        expect(await thread.ask(5)).toBe(5);
      },
    ));

  // The limit counts from the request, so it also covers a fresh thread's start (loading its entry): 3 s
  // leaves that start room on a loaded machine (CI's once took more than 300 ms), and the spin runs far past it.
  it('ends a thread whose request outlasts its limit, and the next request starts a fresh one', () =>
    withThread(
      'the spinner',
      SPIN,
      async (thread) => {
        await expect(thread.ask(120_000)).rejects.toThrow('the spinner took too long');
        expect(await thread.ask(1)).toBe(1);
      },
      3_000,
    ));

  it('opens the thread before its first request, gives its entry workerData, and keeps it without an idle limit', async () => {
    const mark = path.join(directory, 'opened');
    const file = path.join(directory, 'opened.js');
    fs.writeFileSync(
      file,
      `const { workerData } = require('node:worker_threads');\n` +
        `require('node:fs').writeFileSync(workerData.mark, String(workerData.add));\n` +
        `const { serveRequests } = require(${JSON.stringify(compiled)});\n` +
        `serveRequests((n) => n + workerData.add);\n`,
    );
    const thread = new WorkerThread<number, number>({
      file,
      idleMs: null,
      timeoutMs: 30_000,
      name: 'the opened thread',
      workerData: { mark, add: 10 },
    });
    try {
      thread.open();
      // The entry ran (it wrote its mark) with nothing asked of it. writeFileSync creates the file before it
      // writes to it: wait for the content, not only for the file.
      const written = () => fs.existsSync(mark) && fs.readFileSync(mark, 'utf8') !== '';
      const deadline = Date.now() + 20_000;
      while (!written() && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
      expect(fs.readFileSync(mark, 'utf8')).toBe('10');
      expect(await thread.ask(1)).toBe(11);
      // No idle limit: the same thread answers later (a fresh one would write its mark again).
      fs.rmSync(mark);
      await new Promise((done) => setTimeout(done, 200));
      expect(await thread.ask(2)).toBe(12);
      expect(fs.existsSync(mark)).toBe(false);
    } finally {
      thread.close();
    }
  });

  it('fails requests under way when closed', async () => {
    const thread = new WorkerThread<number, number>({
      file: entry('slow', SPIN),
      idleMs: 60_000,
      timeoutMs: 30_000,
      name: 'the slow thread',
    });
    const asked = thread.ask(2_000);
    thread.close();
    await expect(asked).rejects.toThrow('the slow thread was closed');
  });

  it('ends a thread that outgrows its heap cap: the request fails, and the next one gets a fresh thread', async () => {
    // Keeps about `n` MB of small arrays alive (old space, which the cap counts): far past a 16 MB cap, well
    // within Node's default heap.
    const hoard =
      '(n) => { const kept = []; for (let i = 0; i < n * 20000; i++) kept.push([i, i + 1]); return n; }';
    const capped = new WorkerThread<number, number>({
      file: entry('the-hoarder', hoard),
      idleMs: 60_000,
      timeoutMs: 30_000,
      name: 'the hoarder',
      resourceLimits: { maxOldGenerationSizeMb: 16 },
    });
    try {
      await expect(capped.ask(200)).rejects.toThrow();
      expect(await capped.ask(2)).toBe(2);
    } finally {
      capped.close();
    }
  });
});
