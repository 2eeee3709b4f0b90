// The stylesheet the SVG's classes rely on, served by the web app as /assets/diagram.css. The SVG is
// legible without it (colours, dashes and strike lines are presentation attributes); the stylesheet sizes
// and backs the drawing, makes marked records stand out a little more and highlights what the pointer is on.
export const diagramCss = `svg.dss-diagram {
  display: block;
  background: #f8fafc;
  border: 1px solid #e2e8f0;
  border-radius: 8px;
  text-rendering: optimizeLegibility;
}
.dss-diagram .dss-table:hover .dss-box { stroke: #64748b; }
.dss-diagram .dss-relationship .dss-line,
.dss-diagram .dss-relationship .dss-ends { pointer-events: stroke; }
.dss-diagram .dss-relationship:hover .dss-line,
.dss-diagram .dss-relationship:hover .dss-ends { stroke: #0f172a; stroke-width: 2.25; }
.dss-diagram .dss-added > .dss-box,
.dss-diagram .dss-added > .dss-frame,
.dss-diagram .dss-added > .dss-card { stroke: #16a34a; stroke-width: 2.5; }
.dss-diagram .dss-changed > .dss-box,
.dss-diagram .dss-changed > .dss-frame,
.dss-diagram .dss-changed > .dss-card { stroke: #d97706; stroke-width: 2.5; }
.dss-diagram .dss-removed > .dss-box,
.dss-diagram .dss-removed > .dss-frame,
.dss-diagram .dss-removed > .dss-card { stroke: #dc2626; stroke-width: 2.5; stroke-dasharray: 6 4; }
.dss-diagram .dss-relationship.dss-added .dss-line { stroke: #16a34a; }
.dss-diagram .dss-relationship.dss-changed .dss-line { stroke: #d97706; }
.dss-diagram .dss-relationship.dss-removed .dss-line { stroke: #dc2626; stroke-dasharray: 6 4; }
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
.dss-diagram .dss-relationship.dss-related:not(.dss-added):not(.dss-changed):not(.dss-removed) .dss-ends { stroke: #2563eb; }
.dss-diagram .dss-relationship.dss-selected .dss-line { stroke-width: 3.5; }
.dss-diagram .dss-table.dss-focus:not(.dss-added):not(.dss-changed):not(.dss-removed) > .dss-box { stroke: #2563eb; stroke-width: 2.5; }
.dss-diagram .dss-table.dss-neighbour:not(.dss-added):not(.dss-changed):not(.dss-removed) > .dss-box { stroke: #60a5fa; stroke-width: 1.5; }
.dss-diagram .dss-column.dss-joined .dss-column-name,
.dss-diagram .dss-column.dss-joined .dss-column-type { fill: #1d4ed8; font-weight: 700; }
.dss-diagram.dss-focus-mode .dss-table:not(.dss-in-focus),
.dss-diagram.dss-focus-mode .dss-relationship:not(.dss-in-focus),
.dss-diagram.dss-focus-mode .dss-group,
.dss-diagram.dss-focus-mode .dss-note { display: none; }
figure.diagram .dss-relationship-info { position: absolute; left: 8px; bottom: 8px; z-index: 1; margin: 0; max-width: 70%;
  padding: 4px 8px; background: #fff; border: 1px solid #cbd5e1; border-radius: 6px; font-size: 13px; }
`;
