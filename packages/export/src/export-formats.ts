// A diagram document written out in one of the export formats: SQL, DBML and Mermaid text (@dss/sql), the
// drawn diagram as SVG (@dss/diagram-svg, the web app's renderer) and as PNG (the SVG rasterised by
// resvg's WebAssembly build with the DejaVu fonts in a worker thread of its own, so no browser, system
// fonts or native addon is needed and the rasteriser's memory is returned when it idles).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { renderDiagramSvg } from '@dss/diagram-svg';
import { ServiceError } from '@dss/platform';
import type { DiagramDocument, Driver } from '@dss/schema';
import { conversionNote, createScript, dbmlScript, documentForDriver, mermaidScript } from '@dss/sql';
import type { PngAnswer, PngRequest } from './png-worker';

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

/** How long the rasteriser thread lives without work before it ends (and its memory with it). */
const PNG_IDLE_MS = 30_000;
/** The longest a drawing may take to rasterise. */
const PNG_TIMEOUT_MS = 30_000;

interface PendingPng {
  resolve: (png: Buffer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One rasteriser thread, started on the first PNG and ended after PNG_IDLE_MS without one. */
class PngRasteriser {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, PendingPng>();
  private idle: NodeJS.Timeout | undefined;

  render(svg: string, width: number): Promise<Buffer> {
    const worker = this.start();
    clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.stop(new Error('the drawing took too long to rasterise')),
        PNG_TIMEOUT_MS,
      );
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, svg, width } satisfies PngRequest);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile());
    worker.on('message', (answer: PngAnswer | { ready: true }) => {
      if ('ready' in answer) return;
      const job = this.pending.get(answer.id);
      if (!job) return;
      this.pending.delete(answer.id);
      clearTimeout(job.timer);
      if ('png' in answer) job.resolve(Buffer.from(answer.png));
      else job.reject(new Error(`rasterising failed: ${answer.error}`));
      if (this.pending.size === 0) {
        this.idle = setTimeout(() => this.stop(), PNG_IDLE_MS);
        this.idle.unref();
      }
    });
    worker.once('error', (error) => this.stop(error));
    worker.once('exit', () => {
      if (this.worker === worker) this.stop(new Error('the rasteriser stopped'));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private stop(error: Error = new Error('the rasteriser stopped')): void {
    const worker = this.worker;
    this.worker = null;
    clearTimeout(this.idle);
    for (const [id, job] of this.pending) {
      clearTimeout(job.timer);
      job.reject(error);
      this.pending.delete(id);
    }
    if (worker) void worker.terminate();
  }
}

/** The compiled worker entry: the sibling file in dist, or dist's copy when running from the sources. */
function workerFile(): string {
  const sibling = path.join(__dirname, 'png-worker.js');
  if (fs.existsSync(sibling)) return sibling;
  return path.resolve(__dirname, '..', 'dist', 'png-worker.js');
}

const rasteriser = new PngRasteriser();

async function rasterise(drawing: { svg: string; width: number; height: number }): Promise<Buffer> {
  // Twice the drawing's size for sharp text, less when that would pass the pixel budget.
  const scale = Math.min(2, Math.sqrt(MAX_PNG_PIXELS / Math.max(1, drawing.width * drawing.height)));
  try {
    return await rasteriser.render(drawing.svg, Math.max(1, Math.floor(drawing.width * scale)));
  } catch (error) {
    throw new ServiceError('unavailable', `the PNG could not be drawn: ${(error as Error).message}`);
  }
}
