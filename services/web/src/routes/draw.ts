// `/draw#patch=<url-encoded JSON>` (and `?driver=`): a public page with no account. The patch lives in
// the URL fragment, which browsers never send, and the page's script (the diagram-svg browser bundle)
// reads and draws it locally, listing validation problems; nothing about the patch reaches the server.
import type { Router } from 'express';
import { html } from '../html';
import { page } from '../views/layout';

export function drawRoutes(router: Router): void {
  router.get('/draw', (_req, res) => {
    res.send(
      page(
        { title: 'Draw a patch', stylesheets: ['/assets/diagram.css'], scripts: ['/assets/draw.js'] },
        html`<main><ul id="problems"></ul><div id="diagram"></div></main>`,
      ).text,
    );
  });
}
