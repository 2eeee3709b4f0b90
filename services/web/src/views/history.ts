// The History pane of a diagram: its versions (who, when, how) and its proposals with their states,
// each linking to its review page, with "Reopen" on expired ones for owners and editors.
import { isUuid } from '@dss/platform';
import { type Html, html } from '../html';
import { csrfField, timestamp } from './layout';

interface VersionLine {
  uuid: string;
  /** 1 the oldest: the number the API, the review page, the CLI and MCP use. */
  number: number;
  created_at: string;
  author_user_id: string;
  source: string;
  source_id: string;
  /** "v2 release"; empty when none. */
  label: string;
}

interface ProposalLine {
  uuid: string;
  title: string;
  state: string;
  created_at: string;
  expires_at: string;
}

const SOURCE_TEXT: Record<string, string> = {
  create: 'created',
  apply: 'applied a proposal',
  import: 'imported DDL',
  paste: 'applied a pasted patch',
  layout: 'arranged the tables',
  editor: 'edited in the editor',
};

export function historyPane(history: {
  diagramUuid: string;
  versions: VersionLine[];
  names: Map<string, string>;
  proposals: ProposalLine[];
  canEdit: boolean;
  csrfToken: string;
}): Html {
  const versions = [...history.versions].sort((a, b) => b.number - a.number);
  const proposals = [...history.proposals].sort((a, b) => b.created_at.localeCompare(a.created_at));
  // A version made by applying a proposal links to it by its title.
  const proposalTitles = new Map(history.proposals.map((proposal) => [proposal.uuid, proposal.title]));
  return html`<aside class="history" aria-labelledby="history-heading">
<h2 id="history-heading">History</h2>
<h3>Versions</h3>
${versions.length === 0 ? html`<p class="muted">No versions yet: the diagram is still importing, or its import failed.</p>` : ''}
${versions.length > 1 ? compareForm(history.diagramUuid, versions) : ''}
<ol class="versions" reversed>
${versions.map(
  (
    version,
  ) => html`<li id="version-${version.uuid}" data-version="${version.uuid}" data-number="${String(version.number)}" value="${String(version.number)}">
<a class="version-number" href="/diagrams/${history.diagramUuid}/versions/${String(version.number)}">Version ${String(version.number)}</a>
${version.label ? html`<span class="version-label">${version.label}</span>` : ''}
<span class="who">${history.names.get(version.author_user_id) ?? 'a former user'}</span>
<span class="what">${
    version.source === 'restore'
      ? html`restored <a href="/diagrams/${history.diagramUuid}/versions/${version.source_id}">version ${version.source_id}</a>`
      : (SOURCE_TEXT[version.source] ?? version.source)
  }</span>
${
  version.source === 'apply' && isUuid(version.source_id)
    ? html`<a href="/review/${version.source_id}">“${proposalTitles.get(version.source_id) ?? 'the proposal'}”</a>`
    : ''
}
<br>${timestamp(version.created_at)}${
    version.number > 1
      ? html` · <a href="/diagrams/${history.diagramUuid}/compare?from=${String(version.number - 1)}&amp;to=${String(version.number)}" aria-label="Changes in version ${String(version.number)}">changes</a>`
      : ''
  }
</li>`,
)}
</ol>
<h3>Proposals</h3>
${
  proposals.length === 0
    ? html`<p class="muted">No proposals.</p>`
    : html`<ul class="proposals">
${proposals.map(
  (proposal) => html`<li data-proposal="${proposal.uuid}">
<a href="/review/${proposal.uuid}">${proposal.title}</a>
<span class="state state-${proposal.state}">${proposal.state}</span>
<br>${timestamp(proposal.created_at)}
${
  proposal.state === 'expired' && history.canEdit
    ? html`<form method="post" action="/review/${proposal.uuid}/reopen" class="inline">
${csrfField(history.csrfToken)}
<button type="submit">Reopen</button>
</form>`
    : ''
}
</li>`,
)}
</ul>`
}
</aside>`;
}

/** Two version pickers and "Compare" (the newest against the one before it, to start with). */
function compareForm(uuid: string, versions: VersionLine[]): Html {
  const options = (selected: number) =>
    versions.map(
      (version) =>
        html`<option value="${String(version.number)}"${version.number === selected ? ' selected' : ''}>Version ${String(version.number)}${version.label ? ` “${version.label}”` : ''}</option>`,
    );
  const newest = versions[0]!.number;
  return html`<form method="get" action="/diagrams/${uuid}/compare" class="compare-versions" id="history-compare">
<label>From <select name="from">${options(newest - 1)}</select></label>
<label>To <select name="to">${options(newest)}</select></label>
<button type="submit">Compare versions</button>
</form>`;
}
