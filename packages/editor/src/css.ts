// The editor page's stylesheet (served as /assets/editor.css): the CSP allows no inline style, so every
// look the editor's components need is a class here.
export const editorCss = `
body.editing main.editor-page { max-width: none; margin: 0; padding: 0.5rem 1rem 1rem; }
.editor-shell { display: grid; grid-template-columns: minmax(0, 1fr) 22rem; gap: 0.75rem; }
.editor-shell.read-only { grid-template-columns: minmax(0, 1fr); }
.editor-toolbar { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.editor-toolbar .editor-status { margin-left: auto; font-size: 0.9rem; color: #334155; }
.editor-status.failed { color: #b91c1c; font-weight: 600; }
.editor-canvas { border: 1px solid #cbd5e1; border-radius: 6px; overflow: auto; height: calc(100vh - 12rem);
  min-height: 24rem; background: #f8fafc; position: relative; }
.editor-canvas svg { display: block; user-select: none; -webkit-user-select: none; }
.editor-canvas g.dss-table { cursor: pointer; }
.editor-canvas g.dss-table.selected rect.dss-box { stroke: #2563eb; stroke-width: 3; }
.editor-canvas g.dss-table.dragging { opacity: 0.8; }
.editor-panel { border: 1px solid #cbd5e1; border-radius: 6px; padding: 0.75rem; overflow: auto;
  max-height: calc(100vh - 12rem); background: #fff; }
.editor-panel h2 { font-size: 1.05rem; margin: 0 0 0.5rem; }
.editor-panel h3 { font-size: 0.95rem; margin: 0.75rem 0 0.35rem; }
.editor-panel form, .editor-panel fieldset { display: grid; gap: 0.4rem; }
.editor-panel label { display: grid; gap: 0.15rem; font-size: 0.9rem; }
.editor-panel label.check { display: flex; gap: 0.4rem; align-items: center; }
.editor-panel .checks { display: flex; flex-wrap: wrap; gap: 0.3rem 0.9rem; }
.editor-panel .row { display: flex; gap: 0.4rem; flex-wrap: wrap; }
.editor-panel ul.items { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.2rem; }
.editor-panel ul.items li { display: flex; gap: 0.3rem; align-items: center; justify-content: space-between; }
.editor-problem { border: 1px solid #fca5a5; background: #fef2f2; color: #7f1d1d; border-radius: 4px;
  padding: 0.4rem 0.6rem; font-size: 0.9rem; }
.editor-problem ul { margin: 0.25rem 0 0; padding-left: 1.1rem; }
.editor-conflict { grid-column: 1 / -1; }
.editor-help { border: 1px solid #cbd5e1; border-radius: 6px; background: #fff; padding: 0.75rem; }
.editor-help dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
.editor-help kbd { font-family: ui-monospace, monospace; background: #f1f5f9; border: 1px solid #cbd5e1;
  border-radius: 3px; padding: 0 0.3rem; }
button.danger { color: #b91c1c; }
fieldset label.choice { display: inline-flex; gap: 0.3rem; margin-right: 1rem; }
`;
