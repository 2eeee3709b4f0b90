// Worker-thread entry that rasterises SVG drawings to PNG with resvg's WebAssembly build and the DejaVu
// fonts. It runs apart from the gateway's event loop (a large drawing takes about a second) and its
// WebAssembly memory goes away with the thread, which the gateway ends after a short idle time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { serveRequests } from '@dss/platform/worker-thread';

export interface PngRequest {
  svg: string;
  /** Output width in pixels. */
  width: number;
}

async function main(): Promise<void> {
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
  // Requests that came while the WebAssembly loaded wait in the port until now.
  serveRequests(
    (request: PngRequest): Uint8Array => {
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
        try {
          return image.asPng();
        } finally {
          image.free();
        }
      } finally {
        renderer.free();
      }
    },
    (png) => [png.buffer as ArrayBuffer],
  );
}

void main();
