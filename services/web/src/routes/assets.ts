// Static files, all shipped with the code (nothing fetched at run time): the app's stylesheet, and the
// diagram stylesheet and /draw browser bundle of @dss/diagram-svg. Cached briefly, revalidated by ETag.
import { readFileSync } from 'node:fs';
import { diagramCss, drawBundlePath, viewportBundlePath } from '@dss/diagram-svg';
import type { Response, Router } from 'express';
import { APP_CSS } from '../assets/app-css';

export function assetRoutes(router: Router): void {
  const send = (res: Response, type: string, body: string) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type(type).send(body);
  };
  // Read once: the bundle does not change while the process runs.
  let drawBundle: string | undefined;
  let viewportBundle: string | undefined;
  router.get('/assets/app.css', (_req, res) => send(res, 'text/css', APP_CSS));
  router.get('/assets/diagram.css', (_req, res) => send(res, 'text/css', diagramCss));
  router.get('/assets/draw.js', (_req, res) => {
    drawBundle ??= readFileSync(drawBundlePath, 'utf8');
    send(res, 'text/javascript', drawBundle);
  });
  router.get('/assets/viewport.js', (_req, res) => {
    viewportBundle ??= readFileSync(viewportBundlePath, 'utf8');
    send(res, 'text/javascript', viewportBundle);
  });
}
