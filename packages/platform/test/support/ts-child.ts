// Runs a snippet in a separate Node process that can require the package's TypeScript sources (compiled
// with SWC on the fly, as jest does), for behaviour that needs a real process: exit codes and signals.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const SOURCE_DIR = path.join(__dirname, '..', '..', 'src');

const PRELUDE = `
  const swc = require('@swc/core');
  const Module = require('node:module');
  Module._extensions['.ts'] = (m, filename) => {
    const { code } = swc.transformFileSync(filename, {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' },
    });
    m._compile(code, filename);
  };
  const source = (file) => require(require('node:path').join(${JSON.stringify(SOURCE_DIR)}, file));
`;

export interface TsChild {
  child: ChildProcess;
  /** Resolves once stdout contains `text`. */
  printed(text: string): Promise<void>;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

export function startTsChild(body: string, env: Record<string, string> = {}): TsChild {
  const child = spawn(process.execPath, ['-e', `${PRELUDE}\n${body}`], {
    cwd: path.join(SOURCE_DIR, '..', '..', '..'),
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  const listeners: (() => void)[] = [];
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return {
    child,
    printed: (text) =>
      new Promise((resolve) => {
        const check = () => stdout.includes(text) && resolve();
        listeners.push(check);
        check();
      }),
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    stdout: () => stdout,
    stderr: () => stderr,
  };
}
