// The app's stylesheet, served as /assets/app.css. Kept as a module so the compiled service carries it
// (the container image ships dist/ only). Plain CSS, system fonts, nothing loaded from elsewhere.
// Every colour is a custom property: the light palette by default, the dark one when the system asks for it
// (unless the person chose light with the header's toggle, which sets data-theme on <html>) or when they
// chose dark. Pairs of text and background colours keep WCAG AA (4.5:1) in both palettes.
import { themed } from '@dss/diagram-svg';

const LIGHT = `--ink: #1d2330; --muted: #5f6b7a; --line: #d9dee6; --paper: #ffffff; --wash: #f5f7fa;
  --accent: #2457c5; --on-accent: #ffffff; --added: #1f7a3a; --changed: #9a6400; --removed: #b3261e;
  --focus: #2563eb; --control: #ffffff; --control-hover: #f1f5f9; --overlay: rgba(255, 255, 255, 0.92);
  --minimap-table: #cbd5e1; --minimap-view: rgba(36, 87, 197, 0.08); --peer: #c2410c; --label-paper: #fef3c7; --label-ink: #78350f; color-scheme: light;`;

const DARK = `--ink: #e6e9ef; --muted: #a3adbb; --line: #3a4454; --paper: #1b212b; --wash: #12161d;
  --accent: #8ab4ff; --on-accent: #0b1220; --added: #6fd08c; --changed: #f0b65a; --removed: #ff8a80;
  --focus: #8ab4ff; --control: #232a36; --control-hover: #2d3644; --overlay: rgba(27, 33, 43, 0.92);
  --minimap-table: #52607a; --minimap-view: rgba(138, 180, 255, 0.12); --peer: #fb923c; --label-paper: #45330f; --label-ink: #fde68a; color-scheme: dark;`;

export const APP_CSS = `
${themed(LIGHT, DARK)}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--wash); }
a { color: var(--accent); }
code, pre, .secret { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.92em; }
header.top { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 0.6rem 1.5rem;
  background: var(--paper); border-bottom: 1px solid var(--line); }
header.top .brand { font-weight: 600; color: var(--ink); text-decoration: none; }
header.top nav { display: flex; align-items: center; gap: 1rem; }
header.top .who { color: var(--muted); }
main { max-width: 1200px; margin: 1.5rem auto; padding: 0 1.5rem; }
main.narrow { max-width: 560px; }
main.with-aside { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 1.5rem; }
/* Pages built around a diagram use the screen's width: at 1440 px the drawing gets ~1,070 px, not 760. */
main.wide, main.review { max-width: 1760px; }
h1 { font-size: 1.6rem; margin: 0.2rem 0 0.8rem; }
h2 { font-size: 1.2rem; margin: 1.4rem 0 0.6rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.4rem; }
h4 { font-size: 0.9rem; margin: 0.6rem 0 0.2rem; }
.muted, .meta, .crumbs { color: var(--muted); }
.crumbs { margin: 0; }
.badge, .state { display: inline-block; padding: 0 0.5em; border-radius: 999px; font-size: 0.8rem; font-weight: 500;
  background: var(--wash); border: 1px solid var(--line); color: var(--muted); vertical-align: middle; }
.state-pending { color: var(--changed); border-color: currentColor; }
.state-applied { color: var(--added); border-color: currentColor; }
.state-declined, .state-expired { color: var(--removed); border-color: currentColor; }
.plain-text { white-space: pre-wrap; overflow-wrap: anywhere; }
.proposal-text { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 0.8rem 1rem; }
.proposal-text h2 { margin-top: 0; }
table.list { width: 100%; border-collapse: collapse; background: var(--paper); border: 1px solid var(--line); }
table.list th, table.list td { text-align: left; padding: 0.45rem 0.7rem; border-bottom: 1px solid var(--line); }
table.list th { font-size: 0.85rem; color: var(--muted); font-weight: 600; }
section.team { margin-bottom: 2rem; }
form.stack { display: flex; flex-direction: column; gap: 0.7rem; }
form.stack label { display: flex; flex-direction: column; gap: 0.25rem; font-weight: 500; }
form.stack label.check { flex-direction: row; align-items: center; gap: 0.5rem; font-weight: 400; }
form.inline { display: inline; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }
.card + .card { margin-top: 1rem; }
label.copy-field { display: flex; flex-direction: column; gap: 0.25rem; font-weight: 500; }
input, select, textarea { font: inherit; padding: 0.4rem 0.55rem; border: 1px solid var(--line); border-radius: 6px; background: var(--paper); color: var(--ink); }
button { font: inherit; padding: 0.4rem 0.9rem; border-radius: 6px; border: 1px solid var(--line); background: var(--paper); color: var(--ink); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--on-accent); }
a.button { display: inline-block; padding: 0.4rem 0.9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--on-accent); text-decoration: none; }
button.danger { color: var(--removed); border-color: var(--removed); }
button.link { border: none; background: none; color: var(--accent); padding: 0; text-decoration: underline; }
.error { color: var(--removed); }
.notice { background: var(--paper); border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: 0.6rem 1rem; border-radius: 6px; margin: 1rem 0; }
.notice.error { border-left-color: var(--removed); color: var(--ink); }
.secret { display: block; padding: 0.8rem; background: var(--paper); border: 1px dashed var(--accent); overflow-wrap: anywhere; white-space: pre-wrap; }
figure.diagram { position: relative; margin: 0; background: var(--paper); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; height: 75vh; min-height: 320px; }
figure.diagram:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
figure.diagram svg { display: block; width: 100%; height: 100%; cursor: grab; touch-action: none; }
figure.diagram svg:active { cursor: grabbing; }
.dss-zoom-controls { position: absolute; top: 8px; right: 8px; display: flex; gap: 4px; align-items: center; z-index: 1; }
.dss-zoom-controls button { min-width: 32px; height: 30px; padding: 0 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--control); color: var(--ink); font: inherit; cursor: pointer; }
.dss-zoom-controls button:hover { background: var(--control-hover); }
figure.diagram svg.dss-minimap { position: absolute; right: 8px; bottom: 8px; z-index: 1; background: var(--overlay);
  border: 1px solid var(--line); border-radius: 6px; cursor: crosshair; touch-action: none; }
.dss-minimap-table { fill: var(--minimap-table); }
.dss-minimap-view { fill: var(--minimap-view); stroke: var(--accent); stroke-width: 1.5; }
.dss-table-search { height: 30px; width: 180px; padding: 0 8px; border: 1px solid var(--line); border-radius: 6px; font: inherit; background: var(--control); color: var(--ink); }
.import-warnings { background: var(--paper); border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: 0.6rem 1rem; border-radius: 6px; margin: 1rem 0; }
.import-warnings summary { cursor: pointer; }
.import-warnings li { margin: 0.4rem 0; }
.import-warnings .where { color: var(--muted); }
.changes-grid { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 2rem; }
@media (min-width: 1100px) { .changes-grid { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
/* The lint panel sits under the migration, in its column, while the changes run down the first. */
@media (min-width: 1100px) { .changes-grid { grid-template-rows: auto 1fr; } .changes-grid > .changes-section { grid-row: span 2; } .changes-grid > .lint { grid-column: 2; align-self: start; } }
.migration { min-width: 0; }
.migration-sql { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.8rem; overflow: auto; max-width: 100%; max-height: 32rem; white-space: pre; font-size: 12px; }
.migration-warnings { padding-left: 1.2rem; }
.migration-warnings li { margin: 0.2rem 0; }
textarea.code, pre.code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px; width: 100%; box-sizing: border-box; }
pre.code { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.8rem; overflow: auto; }
.lint-findings { padding-left: 1.2rem; }
.lint-findings li { margin: 0.2rem 0; }
.lint-findings .severity { font-weight: 600; text-transform: uppercase; font-size: 11px; }
.lint-error .severity { color: var(--removed); }
.lint-warning .severity { color: var(--changed); }
.lint-counts { font-weight: normal; font-size: 0.8em; color: var(--muted, #666); }
.migration-tools { display: flex; justify-content: flex-end; margin: 0.4rem 0; }
.import-warnings pre.statement { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; margin: 0.2rem 0 0; }
.paste-box { margin: 1rem 0; }
.paste-box textarea { width: 100%; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.dss-found .dss-box { stroke: var(--focus); stroke-width: 3; }
.dss-selected .dss-box { stroke: var(--focus); stroke-width: 2.5; }
.dss-peer-selected .dss-box { stroke: var(--peer); stroke-width: 3; stroke-dasharray: 6 3; }
.live { display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; align-items: baseline; margin: 0.4rem 0; font-size: 0.9rem; }
.live p { margin: 0; }
.live [data-live="state"] { color: var(--muted); }
.live ul { display: flex; flex-wrap: wrap; gap: 0.2rem 1rem; list-style: none; margin: 0; padding: 0; }
.live .live-person { font-weight: 600; }
aside.history { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 0.8rem 1rem; align-self: start; }
aside.history h2 { margin-top: 0; }
aside.history ol, aside.history ul { padding-left: 1.1rem; margin: 0; }
aside.history li { margin-bottom: 0.6rem; }
aside.history ol.versions { list-style: none; padding-left: 0; }
aside.history .version-number { font-weight: 600; }
.diff { display: grid; gap: 0.8rem; }
.diff-section { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 0.4rem 1rem 0.8rem; }
ul.changes { margin: 0; padding-left: 1.1rem; }
ul.fields { margin: 0.2rem 0 0.4rem; padding-left: 1.1rem; color: var(--muted); }
h4.mark-added { color: var(--added); } h4.mark-changed { color: var(--changed); } h4.mark-removed { color: var(--removed); }
.before { text-decoration: line-through; color: var(--removed); } .after { color: var(--added); }
.comment { color: var(--muted); }
.review-actions { display: flex; gap: 2rem; align-items: flex-start; margin: 1.5rem 0; background: var(--paper);
  border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }
.review-actions textarea { width: 24rem; max-width: 100%; }
.conversation { margin: 1.5rem 0; max-width: 52rem; }
.thread { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 1rem; margin: 0.8rem 0; }
.thread.resolved { opacity: 0.8; }
.thread summary { cursor: pointer; font-weight: 500; }
.thread-comments { list-style: none; padding: 0; margin: 0.6rem 0; }
.thread-comment { border-left: 3px solid var(--line); padding: 0.1rem 0 0.1rem 0.8rem; margin: 0.6rem 0; }
.comment-meta { margin: 0; font-size: 0.85rem; color: var(--muted); }
.comment-meta strong { color: var(--ink); }
.comment-body { margin: 0.2rem 0 0; }
.reply-form textarea, #new-thread-form textarea { width: 100%; }
.badge.changes { background: var(--removed); color: #fff; }
.revision-list { padding-left: 1.2rem; }
.review-actions .stack { flex-direction: row; align-items: flex-end; gap: 0.8rem; }
.review-actions textarea[rows] { height: 2.6rem; }
.export-menu { display: inline-block; position: relative; margin: 0.2rem 0.6rem 0.2rem 0; }
.export-menu summary { cursor: pointer; display: inline-block; padding: 0.3rem 0.8rem; border: 1px solid var(--line); border-radius: 6px; background: var(--paper); }
.export-menu ul { position: absolute; z-index: 5; list-style: none; margin: 0.2rem 0 0; padding: 0.4rem 0; min-width: 12rem;
  background: var(--paper); border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 4px 12px rgba(0, 0, 0, 0.12); }
.export-menu li a { display: block; padding: 0.3rem 0.9rem; }
.version-banner { border-left-color: var(--changed); }
.version-tools { display: flex; flex-wrap: wrap; gap: 0.8rem; align-items: center; margin: 0.6rem 0; }
.version-label { display: inline-block; padding: 0 0.4rem; border-radius: 4px; background: var(--label-paper); color: var(--label-ink); font-size: 0.85em; }
.compare-versions { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: end; margin: 0 0 0.8rem; }
.compare-form { display: flex; flex-wrap: wrap; gap: 0.8rem; align-items: end; margin: 0.6rem 0; }
.share-links td, .share-links th { padding: 0.3rem 0.6rem; text-align: left; border-bottom: 1px solid var(--line); }
.share-url { font-family: ui-monospace, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
body.embed { background: var(--paper); }
main.embed { max-width: none; margin: 0; padding: 0; }
main.embed figure.diagram { border: none; height: 100vh; border-radius: 0; }
#problems:empty { display: none; }
@media (max-width: 900px) { main.with-aside { grid-template-columns: 1fr; } }
.top-tools { display: flex; align-items: center; gap: 1rem; }
.theme-toggle { font-size: 0.9rem; padding: 0.2rem 0.7rem; }
.theme-toggle[aria-pressed="true"] { border-color: var(--accent); }
.audit-filters { display: flex; flex-wrap: wrap; gap: 0.8rem; align-items: end; }
.audit-filters label { display: flex; flex-direction: column; gap: 0.2rem; font-size: 0.9rem; }
.table-scroll { overflow-x: auto; }
#audit-events td { vertical-align: top; font-size: 0.9rem; }
#audit-events td code { overflow-wrap: anywhere; }
#audit-events td:nth-child(2) code { white-space: nowrap; overflow-wrap: normal; }
.audit-filters .buttons { display: flex; gap: 0.8rem; align-items: center; }
#audit-events .detail { display: block; overflow-wrap: anywhere; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.pager { display: flex; gap: 1.2rem; }
`;
