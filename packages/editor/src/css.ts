// The editor page's stylesheet (served as /assets/editor.css): the CSP allows no inline style, so every
// look the editor's components need is a class here. Its colours are custom properties with a light and a
// dark palette, switched by the same rule as the app's and the drawing's stylesheets (themed).
import { themed } from '@dss/diagram-svg';

const LIGHT = `--editor-ink: #1d2330; --editor-muted: #334155; --editor-line: #cbd5e1; --editor-paper: #ffffff;
  --editor-canvas: #f8fafc; --editor-focus: #2563eb; --editor-danger: #b91c1c; --editor-problem-line: #fca5a5;
  --editor-problem-paper: #fef2f2; --editor-problem-ink: #7f1d1d; --editor-key: #f1f5f9;
  --editor-code-keyword: #1d4ed8; --editor-code-string: #8a3b00; --editor-code-number: #0f6b3a;
  --editor-code-comment: #52606d; --editor-code-setting: #7c2d91;`;

const DARK = `--editor-ink: #e6e9ef; --editor-muted: #b4bfcd; --editor-line: #3a4454; --editor-paper: #1b212b;
  --editor-canvas: #0f141c; --editor-focus: #60a5fa; --editor-danger: #ff8a80; --editor-problem-line: #7f2d2d;
  --editor-problem-paper: #2a1516; --editor-problem-ink: #fecaca; --editor-key: #232a36;
  --editor-code-keyword: #93c5fd; --editor-code-string: #fdba74; --editor-code-number: #86efac;
  --editor-code-comment: #a3afbf; --editor-code-setting: #e9a8f5;`;

export const editorCss = `
${themed(LIGHT, DARK)}
body.editing main.editor-page { max-width: none; margin: 0; padding: 0.5rem 1rem 1rem; }
.editor-shell { display: grid; grid-template-columns: minmax(0, 1fr) 22rem; gap: 0.75rem; }
.editor-shell.read-only { grid-template-columns: minmax(0, 1fr); }
.editor-shell.with-text { grid-template-columns: minmax(18rem, 30rem) minmax(0, 1fr) 22rem; }
.editor-shell.read-only.with-text { grid-template-columns: minmax(18rem, 30rem) minmax(0, 1fr); }
.editor-text { display: flex; flex-direction: column; gap: 0.4rem; height: calc(100vh - 12rem); min-height: 24rem; }
.editor-text[hidden] { display: none; }
.editor-text-tabs, .editor-text-tabs [role="tablist"] { display: flex; gap: 0.3rem; align-items: center; }
.editor-text-tabs [role="tab"][aria-selected="true"] { border-color: var(--editor-focus); font-weight: 600; }
.editor-text-state { margin: 0 0 0 auto; font-size: 0.85rem; color: var(--editor-muted); }
.editor-text-panel { display: flex; flex-direction: column; gap: 0.4rem; flex: 1; min-height: 0; }
.editor-text-panel[hidden] { display: none; }
.editor-code { flex: 1; min-height: 0; border: 1px solid var(--editor-line); border-radius: 6px; overflow: hidden;
  background: var(--editor-paper); color: var(--editor-ink); }
.editor-text-warnings { font-size: 0.85rem; color: var(--editor-muted); }
.editor-text-warnings ul { margin: 0.25rem 0 0; padding-left: 1.1rem; max-height: 8rem; overflow: auto; }
.editor-toolbar { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.editor-readout { min-width: 3.2em; text-align: center; font-variant-numeric: tabular-nums; color: var(--editor-muted); }
.editor-toolbar .editor-status { margin-left: auto; font-size: 0.9rem; color: var(--editor-muted); }
.editor-status.failed { color: var(--editor-danger); font-weight: 600; }
.editor-canvas { border: 1px solid var(--editor-line); border-radius: 6px; overflow: auto; height: calc(100vh - 12rem);
  min-height: 24rem; background: var(--editor-canvas); position: relative; display: grid; }
/* A drawing smaller than the canvas (zoomed out, or a small diagram) stands in its middle; a larger one
   starts at the top left and scrolls (auto margins are 0 then). */
.editor-canvas svg { display: block; margin: auto; user-select: none; -webkit-user-select: none; }
/* The canvas has the frame: a border on the SVG (border-box) would shrink the drawing within its size, so
   one unit would be a little less than scale pixels, and unevenly across and down. */
.editor-canvas svg.dss-diagram { border: 0; border-radius: 0; }
.editor-canvas g.dss-table { cursor: pointer; }
.editor-canvas g.dss-table.selected rect.dss-box { stroke: var(--editor-focus); stroke-width: 3; }
.editor-canvas g.dss-table.dragging { opacity: 0.8; }
.editor-panel { border: 1px solid var(--editor-line); border-radius: 6px; padding: 0.75rem; overflow: auto;
  max-height: calc(100vh - 12rem); background: var(--editor-paper); color: var(--editor-ink); }
.editor-panel h2 { font-size: 1.05rem; margin: 0 0 0.5rem; }
.editor-panel h3 { font-size: 0.95rem; margin: 0.75rem 0 0.35rem; }
.editor-panel form, .editor-panel fieldset { display: grid; gap: 0.4rem; }
.editor-panel label { display: grid; gap: 0.15rem; font-size: 0.9rem; }
.editor-panel label.check { display: flex; gap: 0.4rem; align-items: center; }
.editor-panel .checks { display: flex; flex-wrap: wrap; gap: 0.3rem 0.9rem; }
.editor-panel .row { display: flex; gap: 0.4rem; flex-wrap: wrap; }
.editor-panel ul.items { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.2rem; }
.editor-panel ul.items li { display: flex; gap: 0.3rem; align-items: center; justify-content: space-between; }
/* A long name (a schema-qualified table of 40 characters) wraps inside the panel instead of running past it. */
.editor-panel ul.items li > button { min-width: 0; overflow-wrap: anywhere; text-align: start; }
.editor-panel ul.items .reorder { display: inline-flex; gap: 0.15rem; }
.editor-panel ul.items .reorder button { min-width: 1.9rem; padding-inline: 0.3rem; }
.editor-problem { border: 1px solid var(--editor-problem-line); background: var(--editor-problem-paper);
  color: var(--editor-problem-ink); border-radius: 4px;
  padding: 0.4rem 0.6rem; font-size: 0.9rem; }
.editor-problem ul { margin: 0.25rem 0 0; padding-left: 1.1rem; }
.editor-conflict { grid-column: 1 / -1; }
.editor-help { border: 1px solid var(--editor-line); border-radius: 6px; background: var(--editor-paper);
  color: var(--editor-ink); padding: 0.75rem; }
.editor-help dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
.editor-help kbd { font-family: ui-monospace, monospace; background: var(--editor-key); border: 1px solid var(--editor-line);
  border-radius: 3px; padding: 0 0.3rem; }
button.danger { color: var(--editor-danger); }
fieldset label.choice { display: inline-flex; gap: 0.3rem; margin-right: 1rem; }
`;
