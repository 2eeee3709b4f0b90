// What changed between two documents, as the review page, the compare page and the paste preview show it:
// the diff, the migration SQL from one to the other with its warnings, and the diagram with the changes
// highlighted.
import { reviewDiagram } from '@dss/diagram-svg';
import { drawDiagram } from '../drawings';
import type { Driver } from '@dss/schema';
import { type Migration, migrationScript } from '@dss/sql';
import { type Html, html, trustedHtml } from '../html';
import type { ProposedChange } from '../proposed-document';
import { diffView } from './diff';

export interface ChangeViewOptions {
  diagramHeading?: string;
  migrationNote?: string;
  /** Shown under the migration, in its column (the review page's lint panel). */
  beside?: Html;
}

export function changeView(
  change: ProposedChange,
  title: string,
  {
    diagramHeading = 'Diagram with the changes',
    migrationNote = "Run on a database built from the diagram's export before this change. Applying the proposal changes the diagram only; it runs nothing.",
    beside,
  }: ChangeViewOptions = {},
): Html {
  if (!change.fits)
    return html`<div class="notice error" id="no-longer-fits">
<p>This proposal no longer fits the diagram as it is now, so it cannot be applied: ${change.message}</p>
${
  change.conflicts?.length
    ? html`<ul class="conflicts" id="conflicts">${change.conflicts.map((conflict) => html`<li>${conflict.reason}</li>`)}</ul>`
    : ''
}
${change.problems.length > 0 ? html`<ul class="problems">${change.problems.map((problem) => html`<li><code>${problem.path}</code> ${problem.message}</li>`)}</ul>` : ''}
</div>`;
  const highlighted = reviewDiagram(change.before, change.after, change.changes);
  return html`<div class="changes-grid">
<section class="changes-section"><h2>Changes</h2>${diffView(change.changes)}</section>
${migrationView(migrationScript(change.before, change.after), change.after.driver, migrationNote)}
${beside ?? ''}
</div>
<section><h2>${diagramHeading}</h2>
<figure class="diagram" id="diagram" data-focus="changes">${trustedHtml(drawDiagram(highlighted.document, { highlight: highlighted.highlight, title }))}</figure>
</section>`;
}

const DRIVER_NAMES: Record<Driver, string> = { pgsql: 'PostgreSQL', mysql: 'MySQL', sqlsrv: 'SQL Server' };

/** The SQL that brings a database from the base version to the proposed one, its warnings first. */
export function migrationView(migration: Migration, driver: Driver, note: string): Html {
  if (migration.statements.length === 0)
    return html`<section class="migration" id="migration"><h2>Migration</h2><p class="muted">Nothing to run: the change is to the canvas only.</p></section>`;
  return html`<section class="migration" id="migration">
<h2>Migration (${DRIVER_NAMES[driver]})</h2>
<p class="muted">${note}</p>
${
  migration.warnings.length > 0
    ? html`<ul class="migration-warnings" id="migration-warnings">${migration.warnings.map(
        (warning) =>
          html`<li><code>${warning.code}</code> statement ${String(warning.statement)}: ${warning.message}</li>`,
      )}</ul>`
    : ''
}
<div class="migration-tools"><button type="button" data-copy-target="migration-sql" id="copy-migration">Copy SQL</button></div>
<pre class="migration-sql"><code id="migration-sql">${migration.sql}</code></pre>
</section>`;
}
