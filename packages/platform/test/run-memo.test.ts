import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoForRun } from '../src/testing';

describe('memoForRun()', () => {
  const saved = process.env.DSS_TEST_RUN_MEMO;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'run-memo-test-'));
    process.env.DSS_TEST_RUN_MEMO = dir;
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.DSS_TEST_RUN_MEMO;
    else process.env.DSS_TEST_RUN_MEMO = saved;
  });

  it("should compute a key's value once per run and give later callers the value read back", async () => {
    let computed = 0;
    const compute = async () => ({ n: ++computed, text: 'it\'s "quoted"\n' });
    expect(await memoForRun('a key', compute)).toEqual({ n: 1, text: 'it\'s "quoted"\n' });
    expect(await memoForRun('a key', compute)).toEqual({ n: 1, text: 'it\'s "quoted"\n' });
    expect(await memoForRun('another key', compute)).toEqual({ n: 2, text: 'it\'s "quoted"\n' });
    expect(computed).toBe(2);
    expect(readdirSync(dir).sort()).toHaveLength(2);
  });

  it('should compute every time outside a run that set up the directory', async () => {
    delete process.env.DSS_TEST_RUN_MEMO;
    let computed = 0;
    await memoForRun('a key', async () => ++computed);
    await memoForRun('a key', async () => ++computed);
    expect(computed).toBe(2);
  });

  it('should pass on a failed computation and remember nothing of it', async () => {
    await expect(memoForRun('failing', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(readdirSync(dir)).toEqual([]);
    expect(await memoForRun('failing', async () => 'now it works')).toBe('now it works');
  });
});
