import * as path from 'node:path';
import { drawBundlePath } from '../src/bundle-path';
import { diagramCss } from '../src/css';
import { renderDiagramSvg } from '../src/render';

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

  it('should switch to its dark palette when the system prefers dark (unless light was chosen) or dark was chosen', () => {
    expect(diagramCss).toContain(
      '@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { --dss-canvas: #0f141c;',
    );
    expect(diagramCss).toContain(':root[data-theme="dark"] { --dss-canvas: #0f141c;');
  });

  it('should leave the exported drawing light: the SVG carries colours as attributes, no stylesheet or variable', () => {
    const svg = renderDiagramSvg({
      tables: [{ uuid: 't', name: 'people', columns: [{ uuid: 'c', name: 'id', type: 'bigint' }] }],
    } as never);
    expect(svg).not.toMatch(/<style|var\(|prefers-color-scheme/);
    expect(svg).toContain('fill="#ffffff"');
  });
});

describe('drawBundlePath', () => {
  it('is the absolute path of dist/browser/draw.js in this workspace', () => {
    expect(path.isAbsolute(drawBundlePath)).toBe(true);
    expect(drawBundlePath).toBe(path.resolve(__dirname, '..', 'dist', 'browser', 'draw.js'));
  });
});
