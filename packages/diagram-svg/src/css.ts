// The stylesheet the SVG's classes rely on, served by the web app as /assets/diagram.css. The SVG is
// legible without it (colours, dashes and strike lines are presentation attributes); the stylesheet sizes
// and backs the drawing, makes marked records stand out a little more and highlights what the pointer is on.
// Its colours are custom properties with a light and a dark palette (see themed): on the page the drawing
// follows the person's theme, while an exported SVG or PNG carries only its attributes and stays light.
// The base colour rules sit in :where() so that every highlight rule, here or in the page's stylesheets,
// still wins over them. The default header colour is matched by value: a document's own header colour keeps
// its own ink (inkOn) in both palettes.
// The light palette's faint ink and key badges are a shade darker than the attributes' (palette.ts): on
// the tinted rows of a review they would fall under 4.5:1.
import { TABLE_HEADER_DEFAULT } from './palette';
import { themed } from './theme-css';

const LIGHT = `--dss-canvas: #f8fafc; --dss-canvas-border: #e2e8f0; --dss-ink: #0f172a; --dss-ink-muted: #475569;
  --dss-ink-faint: #526074; --dss-table-body: #ffffff; --dss-table-border: #cbd5e1; --dss-table-hover: #64748b;
  --dss-header: #e2e8f0; --dss-header-ink: #0f172a; --dss-line: #64748b; --dss-line-hover: #0f172a;
  --dss-focus: #2563eb; --dss-neighbour: #60a5fa; --dss-joined: #1d4ed8;
  --dss-added-tint: #dcfce7; --dss-changed-tint: #fef3c7; --dss-removed-tint: #fee2e2;
  --dss-badge-pk: #92400e; --dss-badge-uq: #6d28d9; --dss-badge-ix: #526074; --dss-badge-fk: #1d4ed8;
  --dss-info-paper: #ffffff; --dss-info-border: #cbd5e1; --dss-info-ink: #0f172a;
  --dss-added: #16a34a; --dss-changed: #d97706; --dss-removed: #dc2626;`;

const DARK = `--dss-canvas: #0f141c; --dss-canvas-border: #2c3645; --dss-ink: #e2e8f0; --dss-ink-muted: #aab6c6;
  --dss-ink-faint: #94a3b8; --dss-table-body: #1c2430; --dss-table-border: #4a5668; --dss-table-hover: #94a3b8;
  --dss-header: #2c3748; --dss-header-ink: #f1f5f9; --dss-line: #8391a7; --dss-line-hover: #e2e8f0;
  --dss-focus: #60a5fa; --dss-neighbour: #3b82f6; --dss-joined: #93c5fd;
  --dss-added-tint: #183d27; --dss-changed-tint: #45330f; --dss-removed-tint: #4a1f1f;
  --dss-badge-pk: #fbbf24; --dss-badge-uq: #c4b5fd; --dss-badge-ix: #a3b1c4; --dss-badge-fk: #93c5fd;
  --dss-info-paper: #1c2430; --dss-info-border: #4a5668; --dss-info-ink: #e2e8f0;
  --dss-added: #22c55e; --dss-changed: #f59e0b; --dss-removed: #f87171;`;

export const diagramCss = `${themed(LIGHT, DARK)}
svg.dss-diagram {
  display: block;
  background: var(--dss-canvas);
  border: 1px solid var(--dss-canvas-border);
  border-radius: 8px;
  text-rendering: optimizeLegibility;
  fill: var(--dss-ink);
}
:where(.dss-diagram) .dss-box { fill: var(--dss-table-body); stroke: var(--dss-table-border); }
:where(.dss-diagram) .dss-header[fill="${TABLE_HEADER_DEFAULT}"] { fill: var(--dss-header); }
:where(.dss-diagram) .dss-header[fill="${TABLE_HEADER_DEFAULT}"] + .dss-table-name,
:where(.dss-diagram) .dss-header[fill="${TABLE_HEADER_DEFAULT}"] ~ .dss-copy-label { fill: var(--dss-header-ink); }
:where(.dss-diagram) .dss-column-name[fill], :where(.dss-diagram) .dss-column-type,
:where(.dss-diagram) .dss-group-name, :where(.dss-diagram) .dss-empty { fill: var(--dss-ink-muted); }
:where(.dss-diagram) .dss-nullable { fill: var(--dss-ink-faint); }
:where(.dss-diagram) .dss-added > .dss-row-mark { fill: var(--dss-added-tint); }
:where(.dss-diagram) .dss-changed > .dss-row-mark { fill: var(--dss-changed-tint); }
:where(.dss-diagram) .dss-removed > .dss-row-mark { fill: var(--dss-removed-tint); }
:where(.dss-diagram) .dss-badge-pk { fill: var(--dss-badge-pk); }
:where(.dss-diagram) .dss-badge-uq { fill: var(--dss-badge-uq); }
:where(.dss-diagram) .dss-badge-ix { fill: var(--dss-badge-ix); }
:where(.dss-diagram) .dss-badge-fk { fill: var(--dss-badge-fk); }
:where(.dss-diagram) .dss-relationship:not(.dss-added):not(.dss-changed):not(.dss-removed) { stroke: var(--dss-line); }
:where(.dss-diagram) .dss-halo { stroke: var(--dss-canvas); }
:where(.dss-diagram) .dss-optional { fill: var(--dss-canvas); }
.dss-diagram .dss-table:hover .dss-box { stroke: var(--dss-table-hover); }
.dss-diagram .dss-relationship .dss-line,
.dss-diagram .dss-relationship .dss-ends { pointer-events: stroke; }
.dss-diagram .dss-relationship:hover .dss-line,
.dss-diagram .dss-relationship:hover .dss-ends { stroke: var(--dss-line-hover); stroke-width: 2.25; }
.dss-diagram .dss-added > .dss-box,
.dss-diagram .dss-added > .dss-frame,
.dss-diagram .dss-added > .dss-card { stroke: var(--dss-added); stroke-width: 2.5; }
.dss-diagram .dss-changed > .dss-box,
.dss-diagram .dss-changed > .dss-frame,
.dss-diagram .dss-changed > .dss-card { stroke: var(--dss-changed); stroke-width: 2.5; }
.dss-diagram .dss-removed > .dss-box,
.dss-diagram .dss-removed > .dss-frame,
.dss-diagram .dss-removed > .dss-card { stroke: var(--dss-removed); stroke-width: 2.5; stroke-dasharray: 6 4; }
.dss-diagram .dss-relationship.dss-added .dss-line { stroke: var(--dss-added); }
.dss-diagram .dss-relationship.dss-changed .dss-line { stroke: var(--dss-changed); }
.dss-diagram .dss-relationship.dss-removed .dss-line { stroke: var(--dss-removed); stroke-dasharray: 6 4; }
.dss-diagram .dss-column.dss-removed text,
.dss-diagram .dss-table.dss-removed .dss-table-name { text-decoration: line-through; }
@media print {
  svg.dss-diagram { background: none; border: none; }
}
svg.dss-arranging .dss-table { cursor: move; }
.dss-diagram.dss-emphasis .dss-table:not(.dss-focus):not(.dss-neighbour) { opacity: 0.25; }
.dss-diagram.dss-emphasis .dss-relationship:not(.dss-related) { opacity: 0.12; }
.dss-diagram.dss-emphasis .dss-group,
.dss-diagram.dss-emphasis .dss-note { opacity: 0.5; }
.dss-diagram .dss-relationship.dss-related .dss-line,
.dss-diagram .dss-relationship.dss-related .dss-ends { stroke-width: 2.5; }
.dss-diagram .dss-relationship.dss-related:not(.dss-added):not(.dss-changed):not(.dss-removed) .dss-line,
.dss-diagram .dss-relationship.dss-related:not(.dss-added):not(.dss-changed):not(.dss-removed) .dss-ends { stroke: var(--dss-focus); }
.dss-diagram .dss-relationship.dss-selected .dss-line { stroke-width: 3.5; }
.dss-diagram .dss-table.dss-focus:not(.dss-added):not(.dss-changed):not(.dss-removed) > .dss-box { stroke: var(--dss-focus); stroke-width: 2.5; }
.dss-diagram .dss-table.dss-neighbour:not(.dss-added):not(.dss-changed):not(.dss-removed) > .dss-box { stroke: var(--dss-neighbour); stroke-width: 1.5; }
.dss-diagram .dss-column.dss-joined .dss-column-name,
.dss-diagram .dss-column.dss-joined .dss-column-type { fill: var(--dss-joined); font-weight: 700; }
.dss-diagram.dss-focus-mode .dss-table:not(.dss-in-focus),
.dss-diagram.dss-focus-mode .dss-relationship:not(.dss-in-focus),
.dss-diagram.dss-focus-mode .dss-group,
.dss-diagram.dss-focus-mode .dss-note { display: none; }
figure.diagram .dss-relationship-info { position: absolute; left: 8px; bottom: 8px; z-index: 1; margin: 0; max-width: 70%;
  padding: 4px 8px; background: var(--dss-info-paper); border: 1px solid var(--dss-info-border); border-radius: 6px; font-size: 13px;
  color: var(--dss-info-ink); }
.dss-diagram .dss-collapsed-group { cursor: pointer; }
.dss-diagram .dss-collapsed-group rect { fill: var(--dss-table-body); stroke: var(--dss-table-border); stroke-width: 2; }
.dss-diagram .dss-collapsed-group text { fill: var(--dss-ink); font-weight: 600; dominant-baseline: middle; }
.dss-diagram .dss-group-collapse { cursor: pointer; }
.dss-diagram .dss-group-collapse rect { fill: var(--dss-table-body); stroke: var(--dss-table-border); }
.dss-diagram .dss-group-collapse path { stroke: var(--dss-ink); stroke-width: 2; }
.dss-diagram .dss-group-collapse:focus-visible rect, .dss-diagram .dss-group-collapse:hover rect { stroke: var(--dss-ink); }
.dss-diagram .dss-group-link { stroke: var(--dss-line); stroke-width: 3; }
figure.diagram .dss-groups-offer { position: absolute; left: 8px; top: 52px; z-index: 1; margin: 0;
  padding: 6px 10px; background: var(--dss-info-paper); border: 1px solid var(--dss-info-border); border-radius: 6px;
  font-size: 13px; color: var(--dss-info-ink); }
`;
