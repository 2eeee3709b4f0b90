import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// normalize, validate, apply and the layout are bundled for the browser: nothing they load may need Node
// (dagre and d3-force are browser libraries).
const ENTRY_POINTS = ['normalize.ts', 'validate.ts', 'apply.ts', 'layout.ts', 'markdown.ts'];
const SOURCE = resolve(__dirname, '../src');
const IMPORT = /(?:from\s+|require\(\s*|import\(\s*)'([^']+)'/g;
const NODE_ONLY = /\b(?:Buffer|process|__dirname|__filename)\b/;

/** Every source file reachable from `entry` through relative imports, with the text of each. */
function reachableFiles(entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const pending = [join(SOURCE, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    for (const [, specifier] of text.matchAll(IMPORT))
      if (specifier!.startsWith('.') && !specifier!.endsWith('.json'))
        pending.push(`${resolve(dirname(file), specifier!)}.ts`.replace(/\/index\.ts\.ts$/, '/index.ts'));
  }
  return files;
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

describe('browser bundle', () => {
  it.each(ENTRY_POINTS)('%s loads no Node module and uses no Node global', (entry) => {
    const offending: string[] = [];
    for (const [file, text] of reachableFiles(entry)) {
      const code = withoutComments(text);
      for (const [, specifier] of code.matchAll(IMPORT))
        if (!specifier!.startsWith('.') && !specifier!.startsWith('@dagrejs/') && specifier !== 'd3-force')
          offending.push(`${file}: imports ${specifier}`);
      if (NODE_ONLY.test(code)) offending.push(`${file}: uses ${NODE_ONLY.exec(code)![0]}`);
    }
    expect(offending).toEqual([]);
  });
});
