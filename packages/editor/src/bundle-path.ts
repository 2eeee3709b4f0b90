// Where the editor's page scripts are after `npm run build` (scripts/bundle.js), resolved from the
// workspace root so the path is the same compiled (dist/) or from source under jest (src/).
import * as path from 'node:path';

/** The editor page's script, served by the web app as /assets/editor.js. */
export const editorBundlePath: string = path.resolve(__dirname, '..', 'dist', 'browser', 'editor.js');

/** The "New diagram" page's script (reads a chosen file into the form), served as /assets/new-diagram.js. */
export const newDiagramBundlePath: string = path.resolve(
  __dirname,
  '..',
  'dist',
  'browser',
  'new-diagram.js',
);

/** The editor's drawing path on a bare page (src/browser/bench-page.ts): the benchmark's and the redraw test's. */
export const drawingBenchPagePath: string = path.resolve(__dirname, '..', 'dist', 'bench', 'page.js');
