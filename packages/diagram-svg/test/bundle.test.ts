// The built /draw bundle (dist/browser/draw.js, made by `npm run build`, which `npm test` runs first).
import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import * as vm from 'node:vm';
import { drawBundlePath } from '../src/bundle-path';

function readBundle(): string {
  try {
    return readFileSync(drawBundlePath, 'utf8');
  } catch {
    throw new Error(
      `${drawBundlePath} is missing: run \`npm run build\` (or \`npm run bundle -w @dss/diagram-svg\`) first`,
    );
  }
}

/** Each match with a little context, so a failure shows where it is without printing the whole bundle. */
function occurrences(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) =>
    text.slice(Math.max(0, match.index - 30), match.index + 30),
  );
}

interface FakeElement {
  children: unknown[];
  hidden?: boolean;
  dataset: Record<string, string>;
  replaceChildren(...nodes: unknown[]): void;
}

function fakeElement(): FakeElement {
  return {
    children: [],
    dataset: {},
    replaceChildren(...nodes) {
      this.children = nodes;
    },
  };
}

/** Runs the bundle against a page with the /draw contract's elements; any network API used throws. */
function runPage(hash: string, search = '', readyState = 'interactive') {
  const diagram = fakeElement();
  const problems = fakeElement();
  const listeners: Record<string, () => void> = {};
  const forbidden = (name: string) => () => {
    throw new Error(`the page used ${name}`);
  };
  const location = { hash, search };
  const window = {
    location,
    addEventListener: (type: string, listener: () => void) => {
      listeners[type] = listener;
    },
  };
  const document = {
    readyState,
    addEventListener: (type: string, listener: () => void) => {
      listeners[`document:${type}`] = listener;
    },
    getElementById: (id: string) => (id === 'diagram' ? diagram : id === 'problems' ? problems : null),
    createElement: (name: string) => ({
      name,
      className: '',
      textContent: '',
      children: [] as unknown[],
      appendChild(node: unknown) {
        this.children.push(node);
        return node;
      },
    }),
    importNode: (node: { svg: string }) => node,
  };
  class DOMParser {
    parseFromString(text: string, type: string) {
      return { documentElement: { svg: text, type } };
    }
  }
  const context = vm.createContext({
    window,
    document,
    DOMParser,
    crypto: webcrypto,
    TextDecoder,
    TextEncoder,
    URLSearchParams,
    fetch: forbidden('fetch'),
    XMLHttpRequest: forbidden('XMLHttpRequest'),
    Image: forbidden('Image'),
    navigator: { sendBeacon: forbidden('sendBeacon') },
  });
  vm.runInContext(readBundle(), context);
  return { diagram, problems, listeners, location };
}

describe('the /draw browser bundle', () => {
  it('makes no network request of any kind', () => {
    const found = occurrences(
      readBundle(),
      /fetch\(|XMLHttpRequest|sendBeacon|new Image|WebSocket|EventSource|import\(/g,
    );
    expect(found).toEqual([]);
  });

  it('contains no Node-only code', () => {
    const found = occurrences(readBundle(), /require\(["']|["']node:|\bBuffer\.|process\.env/g);
    expect(found).toEqual([]);
  });

  it('draws the patch of the fragment into #diagram', () => {
    const patch = { strategy: 'merge', tables: [{ name: 'users', columns: [{ name: 'id', type: 'int' }] }] };
    const { diagram, problems } = runPage(`#patch=${encodeURIComponent(JSON.stringify(patch))}`);
    // The drawing sits in a figure of its own (the zoom-and-pan frame).
    const [figure] = diagram.children as { name: string; className: string; children: unknown[] }[];
    expect(figure).toMatchObject({ name: 'figure', className: 'diagram' });
    const [svg] = figure!.children as { svg: string; type: string }[];
    expect(svg!.type).toBe('image/svg+xml');
    expect(svg!.svg).toMatch(/^<svg [^>]*class="dss-diagram"/);
    expect(svg!.svg).toContain('>users</text>');
    expect(diagram.dataset['state']).toBe('drawn');
    expect(problems.children).toEqual([]);
    expect(problems.hidden).toBe(true);
  });

  it('lists the problems as text and empties #diagram when the patch is invalid', () => {
    const { diagram, problems } = runPage(`#patch=${encodeURIComponent('{"tables": 3}')}`);
    expect(diagram.children).toEqual([]);
    expect(diagram.dataset['state']).toBe('invalid_patch');
    const items = problems.children as { className: string; textContent: string }[];
    expect(items[0]!.className).toBe('dss-draw-error');
    expect(items.slice(1).map((item) => item.textContent)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^strategy: /), expect.stringMatching(/^tables: /)]),
    );
    expect(problems.hidden).toBe(false);
  });

  it('waits for the document to be parsed when it runs early', () => {
    const patch = { strategy: 'merge', tables: [{ name: 'a', columns: [] }] };
    const page = runPage(`#patch=${encodeURIComponent(JSON.stringify(patch))}`, '', 'loading');
    expect(page.diagram.children).toEqual([]);
    page.listeners['document:DOMContentLoaded']!();
    expect(page.diagram.dataset['state']).toBe('drawn');
  });

  it('says the patch is missing, and draws again when the fragment changes', () => {
    const page = runPage('');
    expect((page.problems.children as { textContent: string }[])[0]!.textContent).toMatch(/no #patch=/);
    page.location.hash = `#patch=${encodeURIComponent(JSON.stringify({ strategy: 'merge', tables: [{ name: 'a', columns: [] }] }))}`;
    page.listeners['hashchange']!();
    expect(page.diagram.dataset['state']).toBe('drawn');
    expect(page.problems.children).toEqual([]);
  });
});
