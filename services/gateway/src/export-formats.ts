// A diagram document written out in one of the export formats: SQL, DBML and Mermaid text (@dss/sql), the
// drawn diagram as SVG (@dss/diagram-svg, the web app's renderer) and as PNG (the SVG rasterised by
// resvg's WebAssembly build with the DejaVu fonts, so no browser, system fonts or native addon is needed).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderDiagramSvg } from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';
import { createScript, dbmlScript, mermaidScript } from '@dss/sql';

export const EXPORT_FORMATS = ['sql', 'dbml', 'mermaid', 'svg', 'png'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportBody {
  body: string | Buffer;
  contentType: string;
  extension: string;
}

/** The most pixels a PNG export has (about 4096 × 4096): a larger drawing is scaled down to fit. */
const MAX_PNG_PIXELS = 16_777_216;

export async function exportBody(document: DiagramDocument, format: ExportFormat): Promise<ExportBody> {
  switch (format) {
    case 'sql':
      return {
        body: createScript(document).sql,
        contentType: 'application/sql; charset=utf-8',
        extension: 'sql',
      };
    case 'dbml':
      return { body: dbmlScript(document), contentType: 'text/plain; charset=utf-8', extension: 'dbml' };
    case 'mermaid':
      return { body: mermaidScript(document), contentType: 'text/plain; charset=utf-8', extension: 'mmd' };
    case 'svg':
      return {
        body: standaloneSvg(document).svg,
        contentType: 'image/svg+xml; charset=utf-8',
        extension: 'svg',
      };
    case 'png':
      return { body: await rasterise(standaloneSvg(document)), contentType: 'image/png', extension: 'png' };
  }
}

/** The drawing with its own size (the page version fills its container: width and height 100%). */
function standaloneSvg(document: DiagramDocument): { svg: string; width: number; height: number } {
  const svg = renderDiagramSvg(document);
  const box = /viewBox="(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+)"/.exec(svg);
  const width = Math.ceil(Number(box?.[3] ?? 480));
  const height = Math.ceil(Number(box?.[4] ?? 120));
  return {
    svg: svg.replace('width="100%" height="100%"', `width="${width}" height="${height}"`),
    width,
    height,
  };
}

let resvg: Promise<typeof import('@resvg/resvg-wasm')> | undefined;
let fonts: Uint8Array[] | undefined;

/** resvg's WebAssembly module, compiled once on first use. */
function loadResvg(): Promise<typeof import('@resvg/resvg-wasm')> {
  resvg ??= (async () => {
    const module = await import('@resvg/resvg-wasm');
    const wasm = fs.readFileSync(
      path.join(path.dirname(require.resolve('@resvg/resvg-wasm')), 'index_bg.wasm'),
    );
    await module.initWasm(wasm);
    return module;
  })().catch((error: unknown) => {
    resvg = undefined;
    throw error;
  });
  return resvg;
}

function loadFonts(): Uint8Array[] {
  if (fonts === undefined) {
    const directory = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    fonts = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSansMono.ttf', 'DejaVuSansMono-Bold.ttf'].map(
      (file) => new Uint8Array(fs.readFileSync(path.join(directory, file))),
    );
  }
  return fonts;
}

async function rasterise(drawing: { svg: string; width: number; height: number }): Promise<Buffer> {
  const { Resvg } = await loadResvg();
  // Twice the drawing's size for sharp text, less when that would pass the pixel budget.
  const scale = Math.min(2, Math.sqrt(MAX_PNG_PIXELS / Math.max(1, drawing.width * drawing.height)));
  const renderer = new Resvg(drawing.svg, {
    fitTo: { mode: 'width', value: Math.max(1, Math.floor(drawing.width * scale)) },
    background: '#ffffff',
    font: {
      fontBuffers: loadFonts(),
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
      monospaceFamily: 'DejaVu Sans Mono',
    },
  });
  try {
    const image = renderer.render();
    try {
      return Buffer.from(image.asPng());
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}
