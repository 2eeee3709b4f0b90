// The page half of the browser benchmark (src/bench/browser.ts loads it into Chromium with a generated
// diagram): the editor's drawing path (EditorStore edit, then CanvasDrawing patching the SVG) and, as the
// baseline, what the editor did before it (the whole SVG drawn again by renderDiagramSvg, parsed and put in).
// Each timing runs from the edit's commit to the next frame after the drawing is in the page.
import { renderDiagramSvg } from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';
import { EditorStore } from '../store';
import { EditorController } from './controller';
import { CanvasDrawing } from './drawing';
import { DbmlText, type ReadAnswer } from './text-pane';

interface BenchApi {
  /** Loads the document; returns ms to its first complete drawing (the page's first paint of it). */
  load(document: DiagramDocument): Promise<number>;
  /** Adds a column to the table; ms until the patched drawing is on screen (or the full one, `full`). */
  addColumn(table: string, full: boolean): Promise<number>;
  /** Moves the table by (dx, dy); likewise. */
  moveTable(table: string, dx: number, dy: number, full: boolean): Promise<number>;
  /** The drawing on the page as markup (for the check that patched and full drawings agree). */
  markup(): string;
  /** A full drawing of the current document. */
  fullMarkup(): string;
  /** Relationship lines the last patched drawing put in again (path elements rewritten). */
  linesRedrawn(): number;
  /** Any edit, drawn patched (for checking the patching on documents of any shape). */
  edit(patch: Parameters<EditorStore['edit']>[1]): Promise<number>;
  /**
   * The DBML pane on the loaded document: a column typed into the table's DBML, from the end of the pause
   * (the text read by `dssReadDbml`, the importer's conversion in the bench process, then one edit) until
   * the drawing with the column is on screen; `canvas`: the same column added as a canvas edit (baseline).
   */
  typeColumn(table: string, canvas: boolean): Promise<number>;
}

let store: EditorStore | null = null;
let text: DbmlText | null = null;
let drawing = new CanvasDrawing();
let added = 0;
let linesRedrawn = 0;
const host = document.createElement('section');
host.style.cssText = 'width: 1200px; height: 800px; overflow: auto';
document.body.appendChild(host);

/** Resolves after the next frame has been rendered (style, layout and paint of what was put in). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

async function drawn(start: number, full: boolean): Promise<number> {
  const current = (store as EditorStore).document;
  if (full) {
    const parsed = new DOMParser().parseFromString(
      renderDiagramSvg(current, { title: 'bench' }),
      'image/svg+xml',
    );
    host.replaceChildren(document.importNode(parsed.documentElement, true));
  } else linesRedrawn = drawing.draw(host, current, 'bench').lines;
  await nextFrame();
  const elapsed = performance.now() - start;
  // Untimed: the editor's drawing catches up with this edit (its SVG and routing), so the next patched
  // run patches from the previous version, as in the editor.
  if (full) drawing.draw(host, current, 'bench');
  return elapsed;
}

const api: BenchApi = {
  async load(diagram) {
    const start = performance.now();
    store = new EditorStore(diagram, diagram.driver);
    const read = (window as unknown as { dssReadDbml: (dbml: string) => Promise<ReadAnswer> }).dssReadDbml;
    text = new DbmlText(new EditorController(store, null, true), read);
    drawing = new CanvasDrawing();
    return drawn(start, false);
  },
  async addColumn(table, full) {
    const start = performance.now();
    const column = { name: `added_${added++}`, type: 'varchar(40)', is_nullable: true };
    const result = (store as EditorStore).edit('Add column', {
      strategy: 'merge',
      tables: [{ name: table, columns: [column] }],
    });
    if (!result.ok) throw new Error(result.message);
    return drawn(start, full);
  },
  async moveTable(table, dx, dy, full) {
    const start = performance.now();
    const current = (store as EditorStore).document.tables.find((t) => t.name === table);
    if (!current) throw new Error(`no table ${table}`);
    const result = (store as EditorStore).edit('Move table', {
      strategy: 'merge',
      tables: [{ name: table, left: Number(current.left) + dx, top: Number(current.top) + dy, columns: [] }],
    });
    if (!result.ok) throw new Error(result.message);
    return drawn(start, full);
  },
  async edit(patch) {
    const start = performance.now();
    const result = (store as EditorStore).edit('Edit', patch);
    if (!result.ok) throw new Error(result.message);
    return drawn(start, false);
  },
  async typeColumn(table, canvas) {
    const name = `typed_${added++}`;
    const pane = text as DbmlText;
    if (canvas) {
      const start = performance.now();
      const result = pane.editor.edit(
        'Add column',
        {
          strategy: 'merge',
          tables: [{ name: table, columns: [{ name, type: 'varchar(40)', is_nullable: true }] }],
        },
        'canvas',
      );
      if (!result) throw new Error(pane.editor.refusal.value?.message ?? 'refused');
      return drawn(start, false);
    }
    const lines = pane.text.split('\n');
    const header = lines.findIndex((line) => line.startsWith(`Table "${table}" {`));
    if (header < 0) throw new Error(`no table ${table} in the DBML`);
    lines.splice(header + 1, 0, `  "${name}" varchar(40)`);
    pane.typed(lines.join('\n'));
    // The pause is over: from here the text is read, the edit made and the drawing patched.
    const start = performance.now();
    await pane.settle();
    const problem = pane.problem.value;
    if (problem) throw new Error(`line ${problem.line}: ${problem.message}`);
    if (
      !(store as EditorStore).document.tables
        .find((t) => t.name === table)
        ?.columns.some((c) => c.name === name)
    )
      throw new Error('the typed column was not applied');
    return drawn(start, false);
  },
  markup: () => new XMLSerializer().serializeToString(host.querySelector('svg') as SVGSVGElement),
  linesRedrawn: () => linesRedrawn,
  fullMarkup: () => renderDiagramSvg((store as EditorStore).document, { title: 'bench' }),
};
(window as unknown as { dssBench: BenchApi }).dssBench = api;
