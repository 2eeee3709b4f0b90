// Where the /draw page script is after `npm run build`. Resolved from the workspace root, so it is the same
// file whether this module runs compiled (dist/) or from source under jest (src/).
import * as path from 'node:path';

/** Absolute path of the built browser bundle for /draw (served by the web app as /assets/draw.js). */
export const drawBundlePath: string = path.resolve(__dirname, '..', 'dist', 'browser', 'draw.js');

/** Absolute path of the zoom-and-pan bundle (served by the web app as /assets/viewport.js). */
export const viewportBundlePath: string = path.resolve(__dirname, '..', 'dist', 'browser', 'viewport.js');
