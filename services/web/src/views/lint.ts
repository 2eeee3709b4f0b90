// The lint panel of the review page: the proposal's findings (stored by proposals for its latest revision,
// the same list as GET /proposals/{uuid}/lint), errors first, each with its rule id.
import { type Html, html } from '../html';

interface FindingLine {
  rule: string;
  severity: string;
  message: string;
  table: string;
  column?: string | null;
}

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export function lintView(findings: readonly FindingLine[]): Html {
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const warnings = findings.length - errors;
  if (findings.length === 0)
    return html`<section class="lint" id="lint"><h2>Lint</h2><p class="muted" id="lint-clean">No findings under the team's lint rules.</p></section>`;
  return html`<section class="lint" id="lint">
<h2>Lint <span class="lint-counts" id="lint-counts">${counted(errors, 'error')}, ${counted(warnings, 'warning')}</span></h2>
<ul class="lint-findings" id="lint-findings">${findings.map(
    (finding) =>
      html`<li class="lint-${finding.severity}" data-rule="${finding.rule}" data-table="${finding.table}"${finding.column ? html` data-column="${finding.column}"` : ''}><span class="severity">${finding.severity}</span> <code>${finding.rule}</code> ${finding.message}</li>`,
  )}</ul>
</section>`;
}
