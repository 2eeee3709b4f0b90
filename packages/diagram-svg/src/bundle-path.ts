// Where the /draw page script is after `npm run build`. Resolved from the workspace root, so it is the same
// file whether this module runs compiled (dist/) or from source under jest (src/).
import * as path from 'node:path';

/** Absolute path of the built browser bundle for /draw (served by the web app as /assets/draw.js). */
export const drawBundlePath: string = path.resolve(__dirname, '..', 'dist', 'browser', 'draw.js');

/** Absolute path of the zoom-and-pan bundle (served by the web app as /assets/viewport.js). */
export const viewportBundlePath: string = path.resolve(__dirname, '..', 'dist', 'browser', 'viewport.js');

/**
 * The built module of the layout's last step (line-room.ts's `makeRoomForLines`), for the DDL conversion
 * workers (packages/ddl's ConversionPoolOptions.finishLayout): a worker thread loads compiled JavaScript.
 */
export const lineRoomStep = {
  module: path.resolve(__dirname, '..', 'dist', 'line-room.js'),
  name: 'makeRoomForLines',
} as const;
