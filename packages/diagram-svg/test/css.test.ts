import * as path from 'node:path';
import { drawBundlePath } from '../src/bundle-path';
import { diagramCss } from '../src/css';

describe('diagramCss', () => {
  it('styles each highlight class', () => {
    for (const mark of ['dss-added', 'dss-changed', 'dss-removed']) expect(diagramCss).toContain(`.${mark}`);
  });

  it('loads nothing else (no @import, no url())', () => {
    expect(diagramCss).not.toMatch(/@import|url\(/);
  });

  it('has balanced braces', () => {
    expect(diagramCss.split('{').length).toBe(diagramCss.split('}').length);
  });
});

describe('drawBundlePath', () => {
  it('is the absolute path of dist/browser/draw.js in this workspace', () => {
    expect(path.isAbsolute(drawBundlePath)).toBe(true);
    expect(drawBundlePath).toBe(path.resolve(__dirname, '..', 'dist', 'browser', 'draw.js'));
  });
});
