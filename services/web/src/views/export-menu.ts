// The "Export" menu of the diagram page and of an opened version: each format a download link to the web
// app's export route (routes/exports.ts), which answers with the same bytes as the API's export. SQL is
// offered for each driver, the diagram's own first; another driver's script is the diagram converted by
// @dss/sql's documentForDriver, with what the conversion loses as comments at its top.
import { DRIVERS } from '@dss/schema';
import { DRIVER_TITLES } from '@dss/sql';
import { type Html, html } from '../html';

export function exportMenu(diagram: { uuid: string }, driver: string, version?: number): Html {
  const versionQuery = version === undefined ? '' : `version=${version}`;
  const item = (format: string, text: string, driverQuery = '') => {
    const query = [driverQuery, versionQuery].filter((part) => part !== '').join('&');
    return html`<li><a href="/diagrams/${diagram.uuid}/export/${format}${query === '' ? '' : `?${query}`}" download>${text}</a></li>`;
  };
  const drivers = [...DRIVERS].sort((a, b) => Number(b === driver) - Number(a === driver));
  const sqlItems = drivers.map((name) => item('sql', `SQL (${DRIVER_TITLES[name]})`, `driver=${name}`));
  return html`<details class="export-menu" id="export-menu">
<summary>Export</summary>
<ul>
${sqlItems}
${item('dbml', 'DBML')}
${item('mermaid', 'Mermaid')}
${item('svg', 'SVG image')}
${item('png', 'PNG image')}
</ul>
</details>`;
}
