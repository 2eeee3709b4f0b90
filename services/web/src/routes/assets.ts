// Static files, all shipped with the code (nothing fetched at run time): the app's stylesheet, the diagram
// stylesheet and browser bundles of @dss/diagram-svg, and this app's live page script. Cached briefly,
// revalidated by ETag.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { diagramCss, drawBundlePath, viewportBundlePath } from '@dss/diagram-svg';
import { editorBundlePath, editorCss, newDiagramBundlePath } from '@dss/editor';
import type { Response, Router } from 'express';
import { APP_CSS } from '../assets/app-css';
import { THEME_SCRIPT } from '../assets/theme-js';

/** Two linked tables: the app's icon, as SVG (browsers that ask for /favicon.ico accept it too). */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="4" width="12" height="14" rx="2" fill="#2563eb"/>' +
  '<rect x="18" y="14" width="12" height="14" rx="2" fill="#0f172a"/><path d="M14 11h4v10h0" fill="none" stroke="#64748b" stroke-width="2"/></svg>';

/** Copy buttons: a button with `data-copy-target` copies the text of the element with that id. */
const COPY_SCRIPT = `document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy-target]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy-target') || '');
  if (!source || !navigator.clipboard) return;
  const label = button.textContent;
  navigator.clipboard.writeText(source.textContent || '').then(
    () => { button.textContent = 'Copied'; setTimeout(() => { button.textContent = label; }, 1500); },
    () => { button.textContent = 'Copy failed: select the text'; },
  );
});
`;

/**
 * The live page script, built by scripts/bundle.js from src/client-live; resolved from the workspace, so it
 * is the same file whether this module runs compiled (dist/routes) or from source under jest (src/routes).
 */
const LIVE_BUNDLE_PATH = path.resolve(__dirname, '..', '..', 'dist', 'client', 'live.js');

export function assetRoutes(router: Router): void {
  const send = (res: Response, type: string, body: string) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type(type).send(body);
  };
  // Read once: the bundle does not change while the process runs.
  let drawBundle: string | undefined;
  let viewportBundle: string | undefined;
  let liveBundle: string | undefined;
  router.get('/assets/app.css', (_req, res) => send(res, 'text/css', APP_CSS));
  router.get('/assets/diagram.css', (_req, res) => send(res, 'text/css', diagramCss));
  router.get('/assets/theme.js', (_req, res) => send(res, 'text/javascript', THEME_SCRIPT));
  router.get('/assets/copy.js', (_req, res) => send(res, 'text/javascript', COPY_SCRIPT));
  router.get('/assets/draw.js', (_req, res) => {
    drawBundle ??= readFileSync(drawBundlePath, 'utf8');
    send(res, 'text/javascript', drawBundle);
  });
  router.get('/assets/editor.css', (_req, res) => send(res, 'text/css', editorCss));
  const bundles = new Map<string, string>();
  const bundle = (file: string) => (_req: unknown, res: Response) => {
    if (!bundles.has(file)) bundles.set(file, readFileSync(file, 'utf8'));
    send(res, 'text/javascript', bundles.get(file)!);
  };
  router.get('/assets/editor.js', bundle(editorBundlePath));
  router.get('/assets/new-diagram.js', bundle(newDiagramBundlePath));
  router.get(['/favicon.ico', '/assets/favicon.svg'], (_req, res) => send(res, 'image/svg+xml', FAVICON));
  router.get('/assets/viewport.js', (_req, res) => {
    viewportBundle ??= readFileSync(viewportBundlePath, 'utf8');
    send(res, 'text/javascript', viewportBundle);
  });
  router.get('/assets/live.js', (_req, res) => {
    liveBundle ??= readFileSync(LIVE_BUNDLE_PATH, 'utf8');
    send(res, 'text/javascript', liveBundle);
  });
}
