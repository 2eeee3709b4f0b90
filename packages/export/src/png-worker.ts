// Worker-thread entry that rasterises SVG drawings to PNG with resvg's WebAssembly build and the DejaVu
// fonts. It runs apart from the gateway's event loop (a large drawing takes about a second) and its
// WebAssembly memory goes away with the thread, which the gateway ends after a short idle time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';

export interface PngRequest {
  id: number;
  svg: string;
  /** Output width in pixels. */
  width: number;
}

export type PngAnswer = { id: number; png: Uint8Array } | { id: number; error: string };

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const resvg = await import('@resvg/resvg-wasm');
  await resvg.initWasm(
    fs.readFileSync(path.join(path.dirname(require.resolve('@resvg/resvg-wasm')), 'index_bg.wasm')),
  );
  const directory = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const fontBuffers = [
    'DejaVuSans.ttf',
    'DejaVuSans-Bold.ttf',
    'DejaVuSansMono.ttf',
    'DejaVuSansMono-Bold.ttf',
  ].map((file) => new Uint8Array(fs.readFileSync(path.join(directory, file))));
  port.on('message', (request: PngRequest) => {
    let answer: PngAnswer;
    try {
      const renderer = new resvg.Resvg(request.svg, {
        fitTo: { mode: 'width', value: request.width },
        background: '#ffffff',
        font: {
          fontBuffers,
          defaultFontFamily: 'DejaVu Sans',
          sansSerifFamily: 'DejaVu Sans',
          monospaceFamily: 'DejaVu Sans Mono',
        },
      });
      try {
        const image = renderer.render();
        answer = { id: request.id, png: image.asPng() };
        image.free();
      } finally {
        renderer.free();
      }
    } catch (error) {
      answer = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer, 'png' in answer ? [answer.png.buffer as ArrayBuffer] : []);
  });
  port.postMessage({ ready: true });
}

void main();
