// A diagram document written out in one of the export formats: SQL, DBML and Mermaid text (@dss/sql), the
// drawn diagram as SVG (@dss/diagram-svg, the web app's renderer) and as PNG (the SVG rasterised by
// resvg's WebAssembly build with the DejaVu fonts in a worker thread of its own, so no browser, system
// fonts or native addon is needed and the rasteriser's memory is returned when it idles).
import { renderDiagramSvg } from '@dss/diagram-svg';
import { compiledEntry, ServiceError, WorkerThread } from '@dss/platform';
import type { DiagramDocument, Driver } from '@dss/schema';
import { conversionNote, createScript, dbmlScript, documentForDriver, mermaidScript } from '@dss/sql';
import type { PngRequest } from './png-worker';

export const EXPORT_FORMATS = ['sql', 'dbml', 'mermaid', 'svg', 'png'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportBody {
  body: string | Buffer;
  contentType: string;
  extension: string;
}

/** The most pixels a PNG export has (about 4096 × 4096): a larger drawing is scaled down to fit. */
const MAX_PNG_PIXELS = 16_777_216;

export interface ExportOptions {
  /**
   * SQL only: the driver to write the script for. Another than the diagram's converts the document
   * (@dss/sql's documentForDriver) and starts the script with the conversion's warnings as comments; the
   * file's extension then names the driver (`mysql.sql`). Absent: the diagram's own driver, `sql`.
   */
  driver?: Driver;
}

export async function exportBody(
  document: DiagramDocument,
  format: ExportFormat,
  options: ExportOptions = {},
): Promise<ExportBody> {
  switch (format) {
    case 'sql':
      return sqlBody(document, options.driver);
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

function sqlBody(document: DiagramDocument, driver: Driver | undefined): ExportBody {
  const contentType = 'application/sql; charset=utf-8';
  if (driver === undefined) return { body: createScript(document).sql, contentType, extension: 'sql' };
  if (driver === document.driver)
    return { body: createScript(document).sql, contentType, extension: `${driver}.sql` };
  const converted = documentForDriver(document, driver);
  return {
    body: conversionNote(document.driver, driver, converted.warnings) + createScript(converted.document).sql,
    contentType,
    extension: `${driver}.sql`,
  };
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

/** One rasteriser thread, started on the first PNG and ended after 30 s without one (and its memory with it). */
const rasteriser = new WorkerThread<PngRequest, Uint8Array>({
  file: compiledEntry(__dirname, 'png-worker.js'),
  idleMs: 30_000,
  timeoutMs: 30_000,
  name: 'the rasteriser',
});

async function rasterise(drawing: { svg: string; width: number; height: number }): Promise<Buffer> {
  // Twice the drawing's size for sharp text, less when that would pass the pixel budget.
  const scale = Math.min(2, Math.sqrt(MAX_PNG_PIXELS / Math.max(1, drawing.width * drawing.height)));
  try {
    const width = Math.max(1, Math.floor(drawing.width * scale));
    const png = await rasteriser.ask({ svg: drawing.svg, width });
    return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  } catch (error) {
    throw new ServiceError('unavailable', `the PNG could not be drawn: ${(error as Error).message}`);
  }
}
