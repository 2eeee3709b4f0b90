// A value computed once per test run instead of once per test file: jest gives each file fresh modules, so
// an expensive input that many files share (a corpus file converted to a diagram: the SQL Server reader
// spends seconds per file building its parser's prediction tables) would otherwise be computed again in
// every file. The run's global set-up (scripts/lib/jest-run-memo.js) names a directory in
// DSS_TEST_RUN_MEMO and removes it when the run ends, so nothing outlives the code that computed it. Only
// for inputs of a test, never for what the test checks; values must survive JSON. Without the directory
// (a test run outside jest's set-up, a benchmark) each call computes.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function memoForRun<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const dir = process.env.DSS_TEST_RUN_MEMO;
  if (!dir || !existsSync(dir)) return compute();
  const file = path.join(dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    const value = await compute();
    // Written whole under a name of its own, then renamed: a file reading it at the same time sees all or none.
    const partial = `${file}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, JSON.stringify(value));
    await rename(partial, file);
    return value;
  }
}
