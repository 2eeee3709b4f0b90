// The "Export" menu of the diagram page and of an opened version: each format a download link to the web
// app's export route (routes/exports.ts), which answers with the same bytes as the API's export.
import { type Html, html } from '../html';

const DRIVER_NAMES: Record<string, string> = { pgsql: 'PostgreSQL', mysql: 'MySQL', sqlsrv: 'SQL Server' };

export function exportMenu(diagram: { uuid: string }, driver: string, version?: number): Html {
  const query = version === undefined ? '' : `?version=${version}`;
  const item = (format: string, text: string) =>
    html`<li><a href="/diagrams/${diagram.uuid}/export/${format}${query}" download>${text}</a></li>`;
  return html`<details class="export-menu" id="export-menu">
<summary>Export</summary>
<ul>
${item('sql', `SQL (${DRIVER_NAMES[driver] ?? driver})`)}
${item('dbml', 'DBML')}
${item('mermaid', 'Mermaid')}
${item('svg', 'SVG image')}
${item('png', 'PNG image')}
</ul>
</details>`;
}
