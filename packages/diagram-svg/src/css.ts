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
`;
