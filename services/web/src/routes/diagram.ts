// `/diagrams/{uuid}`: the diagram drawn as SVG from its full document, with its History pane;
// `/embed/{uuid}`: the same drawing without the app's chrome (same access rules).
import { reviewDiagram } from '@dss/diagram-svg';
import { isServiceError } from '@dss/platform';
import { type Driver, MAX_SCHEMA_BYTES } from '@dss/schema';
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { drawDiagram } from '../drawings';
import { type PageDrawing, pageDrawings } from '../page-drawing';
import { type Html, html, trustedHtml } from '../html';
import { PageError } from '../page-errors';
import { lifecycleControls } from './diagram-lifecycle';
import { type ProposedChange, proposedChange } from '../proposed-document';
import { diffView } from '../views/diff';
import { type Diagram, findVisibleDiagram, fullDocument, userNames } from '../lookups';
import { EMBED_CONTENT_SECURITY_POLICY } from '../security-headers';
import { requireViewer, viewerOf } from '../session';
import { canEdit, principalFor } from '../viewer';
import { drawingFigure, wantsCopies } from '../views/copies-note';
import { exportMenu } from '../views/export-menu';
import { historyPane } from '../views/history';
import { csrfField, page } from '../views/layout';

export function diagramRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;

  router.get('/diagrams/:uuid', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const principal = principalFor(viewer, membership);
    const copies = wantsCopies(req.query);
    const [document, versions, proposals] = await Promise.all([
      pageDrawings.of(clients, principal, diagram, copies),
      clients.diagrams.ListVersions({ principal, uuid: diagram.uuid }),
      clients.proposals.ListProposalsForDiagram({ diagram_uuid: diagram.uuid, team_id: membership.team_id }),
    ]);
    const names = await userNames(
      clients,
      versions.versions.map((version) => version.author_user_id),
    );
    const csrfToken = csrfTokenFor(context, req, res);
    const drawn = await drawing(diagram, document, { copies, toggle: `/diagrams/${diagram.uuid}` });
    res.send(
      page(
        {
          title: diagram.name,
          viewer: { ...viewer.user, csrfToken },
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js', '/assets/live.js'],
        },
        html`<main class="with-aside wide">
<div class="primary-column">
<p class="crumbs"><a href="/">${membership.team_name}</a> /</p>
<h1>${diagram.name}</h1>
<p class="meta"><span class="badge">${diagram.driver}</span> <span data-live="table-count">${statusText(diagram)}</span> · <a href="/embed/${diagram.uuid}">embed view</a> · <a href="/diagrams/${diagram.uuid}/edit">${canEdit(membership.role) ? 'Open in the editor' : 'Open in the editor (read-only)'}</a></p>
${document ? exportMenu(diagram, document.driver) : ''} ${canEdit(membership.role) ? html`<a href="/diagrams/${diagram.uuid}/share">Share links</a>` : ''}
${lifecycleControls(diagram, membership.role, csrfToken)}
${importWarnings(diagram.warnings)}
${document ? liveSection(diagram.uuid, versions.versions[0]?.uuid ?? '', csrfToken) : ''}
${drawn}
${canEdit(membership.role) && document ? layoutForm(diagram.uuid, csrfToken, versions.versions[0]?.uuid ?? '') : ''}
${canEdit(membership.role) && document ? pasteBox(diagram.uuid, csrfToken) : ''}
</div>
${historyPane({
  diagramUuid: diagram.uuid,
  versions: versions.versions,
  names,
  proposals: proposals.proposals,
  canEdit: canEdit(membership.role),
  csrfToken,
})}
</main>`,
      ).text,
    );
  });

  // The paste-back box: a patch pasted by an owner or editor is checked and previewed (diff and
  // highlighted diagram) first; "Apply" then writes it as a new version, unless the diagram changed
  // since the preview (optimistic concurrency: the preview names the version it was made against).
  router.post('/diagrams/:uuid/paste', requireViewer, (req, res) => pastePreview(req, res));
  router.post('/diagrams/:uuid/paste/apply', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    if (!canEdit(membership.role)) throw editorRequired();
    const form = req.body as Record<string, unknown>;
    const pasted = typeof form.patch === 'string' ? form.patch : '';
    const parsed = readPastedPatch(pasted);
    if (!parsed.ok) return pastePreview(req, res);
    try {
      await clients.diagrams.ApplyPatch({
        diagram_uuid: diagram.uuid,
        team_id: membership.team_id,
        user_id: viewer.user.id,
        patch_json: JSON.stringify(parsed.patch),
        source: 'paste',
        source_id: '',
        base_version_uuid: typeof form.base_version === 'string' ? form.base_version : '',
      });
    } catch (error) {
      if (isServiceError(error) && (error.code === 'conflict' || error.code === 'invalid_schema'))
        return pastePreview(req, res, error.message);
      throw error;
    }
    res.redirect(303, `/diagrams/${diagram.uuid}`);
  });

  async function pastePreview(req: Request, res: Response, conflict?: string) {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    if (!canEdit(membership.role)) throw editorRequired();
    const principal = principalFor(viewer, membership);
    const [document, versions] = await Promise.all([
      fullDocument(clients, viewer, membership, diagram),
      clients.diagrams.ListVersions({ principal, uuid: diagram.uuid }),
    ]);
    const form = req.body as Record<string, unknown>;
    const pasted = typeof form.patch === 'string' ? form.patch : '';
    const parsed = readPastedPatch(pasted);
    const change =
      parsed.ok && document
        ? proposedChange(document, JSON.stringify(parsed.patch), diagram.driver as Driver)
        : null;
    const baseVersion = versions.versions[0]?.uuid ?? '';
    const csrfToken = csrfTokenFor(context, req, res);
    const problems = !parsed.ok
      ? [{ path: '', message: parsed.message }]
      : change && !change.fits
        ? change.problems
        : [];
    res.status(problems.length > 0 || conflict ? 422 : 200).send(
      page(
        {
          title: `Paste a patch: ${diagram.name}`,
          viewer: { ...viewer.user, csrfToken },
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js'],
        },
        html`<main class="review">
<p class="crumbs"><a href="/">${membership.team_name}</a> / <a href="/diagrams/${diagram.uuid}">${diagram.name}</a> /</p>
<h1>Paste a patch</h1>
${conflict ? html`<div class="notice error" role="alert" id="paste-conflict"><p>${conflict}</p></div>` : ''}
${
  problems.length > 0
    ? html`<div class="notice error" role="alert" id="paste-problems"><p>${
        !parsed.ok ? 'The text is not a schema patch.' : change && !change.fits ? change.message : ''
      }</p><ul class="problems">${problems.map(
        (problem) =>
          html`<li>${problem.path ? html`<code>${problem.path}</code> ` : ''}${problem.message}</li>`,
      )}</ul></div>`
    : ''
}
${change?.fits ? pastedChangeView(change, diagram.name) : ''}
${
  change?.fits
    ? html`<form method="post" action="/diagrams/${diagram.uuid}/paste/apply" id="paste-apply-form">
${csrfField(csrfToken)}
<input type="hidden" name="patch" value="${pasted}">
<input type="hidden" name="base_version" value="${baseVersion}">
<button type="submit" class="primary">Apply</button> <a href="/diagrams/${diagram.uuid}">Cancel</a>
</form>`
    : ''
}
${pasteBox(diagram.uuid, csrfToken, pasted)}
</main>`,
      ).text,
    );
  }

  // Arrange by hand: the page script posts the moved tables' new positions; they are written as a new
  // version (source `layout`) with the same optimistic concurrency as the paste-back box.
  router.post('/diagrams/:uuid/layout', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    if (!canEdit(membership.role)) throw editorRequired();
    const form = req.body as Record<string, unknown>;
    const positions = readPositions(typeof form.positions === 'string' ? form.positions : '');
    if (
      positions === null ||
      positions.tables.length + positions.groups.length + positions.notes.length === 0
    )
      throw new PageError(422, 'Nothing to save', 'The layout form carried no positions.');
    try {
      await clients.diagrams.ApplyPatch({
        diagram_uuid: diagram.uuid,
        team_id: membership.team_id,
        user_id: viewer.user.id,
        patch_json: JSON.stringify({
          strategy: 'merge',
          ...(positions.tables.length > 0 ? { tables: positions.tables } : {}),
          ...(positions.groups.length > 0 ? { groups: positions.groups } : {}),
        }),
        source: 'layout',
        source_id: '',
        base_version_uuid: typeof form.base_version === 'string' ? form.base_version : '',
        note_positions_json:
          positions.notes.length > 0
            ? JSON.stringify(
                Object.fromEntries(positions.notes.map((note) => [note.name, [note.left, note.top]])),
              )
            : '',
      });
    } catch (error) {
      if (isServiceError(error) && error.code === 'conflict')
        throw new PageError(
          409,
          'The diagram has changed',
          'Someone changed this diagram while you arranged it, so your positions were not saved. Reload it and arrange again.',
        );
      throw error;
    }
    res.redirect(303, `/diagrams/${diagram.uuid}`);
  });

  router.get('/embed/:uuid', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const copies = wantsCopies(req.query);
    const document = await pageDrawings.of(clients, principalFor(viewer, membership), diagram, copies);
    const drawn = await drawing(diagram, document, { copies });
    res.setHeader('Content-Security-Policy', EMBED_CONTENT_SECURITY_POLICY);
    res.removeHeader('X-Frame-Options');
    res.send(
      page(
        {
          title: diagram.name,
          stylesheets: ['/assets/diagram.css'],
          scripts: ['/assets/viewport.js'],
          bodyClass: 'embed',
        },
        html`<main class="embed">${drawn}</main>`,
      ).text,
    );
  });
}

/**
 * Where /assets/live.js says whether the page is live and who else has the diagram open (filled by the
 * script, every text set as text); its data names the diagram and the version drawn.
 */
function liveSection(uuid: string, versionUuid: string, csrfToken: string): Html {
  return html`<section class="live" id="live" aria-label="Who else is here" data-diagram="${uuid}" data-version="${versionUuid}" data-csrf="${csrfToken}">
<p data-live="state" aria-live="polite">Connecting…</p>
<ul data-live="people" aria-label="Also on this diagram"></ul>
<p data-live="note" aria-live="polite"></p>
</section>`;
}

/** The form the page script fills and submits when an owner or editor saves positions set by hand. */
function layoutForm(uuid: string, csrfToken: string, baseVersion: string): Html {
  return html`<form method="post" action="/diagrams/${uuid}/layout" id="layout-form" hidden>
${csrfField(csrfToken)}
<input type="hidden" name="positions" value="">
<input type="hidden" name="base_version" value="${baseVersion}">
</form>`;
}

type Position = { name: string; left: number; top: number };

/**
 * `{"tables": {"<name>": [left, top]}, "groups": {…}, "notes": {"<uuid>": […]}}` as positions; null when it
 * is not that shape (at most 5,000 entries a kind).
 */
export function readPositions(
  text: string,
): { tables: Position[]; groups: Position[]; notes: Position[] } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const read = (section: unknown): Position[] | null => {
    if (section === undefined) return [];
    if (section === null || typeof section !== 'object' || Array.isArray(section)) return null;
    const entries = Object.entries(section as Record<string, unknown>);
    if (entries.length > 5000) return null;
    const out: Position[] = [];
    for (const [name, position] of entries) {
      if (!Array.isArray(position) || position.length !== 2) return null;
      const [left, top] = position.map((n) => Math.round(Number(n)));
      if (!Number.isFinite(left) || !Number.isFinite(top)) return null;
      out.push({ name, left: Math.max(0, left as number), top: Math.max(0, top as number) });
    }
    return out;
  };
  const { tables, groups, notes } = value as { tables?: unknown; groups?: unknown; notes?: unknown };
  const readTables = read(tables);
  const readGroups = read(groups);
  const readNotes = read(notes);
  return readTables === null || readGroups === null || readNotes === null
    ? null
    : { tables: readTables, groups: readGroups, notes: readNotes };
}

function pasteBox(uuid: string, csrfToken: string, text = ''): Html {
  return html`<details class="paste-box"${text ? ' open' : ''}>
<summary>Paste a schema patch</summary>
<form method="post" action="/diagrams/${uuid}/paste" id="paste-form" class="stack">
${csrfField(csrfToken)}
<label>Schema patch (JSON; the same format as the API's <code>schema</code>)
<textarea name="patch" rows="10" spellcheck="false">${text}</textarea></label>
<button type="submit">Preview</button>
</form>
</details>`;
}

function pastedChangeView(change: Extract<ProposedChange, { fits: true }>, title: string): Html {
  const highlighted = reviewDiagram(change.before, change.after, change.changes);
  return html`<section class="changes-section"><h2>Changes</h2>${diffView(change.changes)}</section>
<section><h2>Diagram with the changes</h2>
<figure class="diagram" id="diagram" data-focus="changes">${trustedHtml(drawDiagram(highlighted.document, { highlight: highlighted.highlight, title }))}</figure>
</section>`;
}

/** The pasted text as a patch: a JSON object, or a JSON string holding one (as the API accepts). */
export function readPastedPatch(text: string): { ok: true; patch: object } | { ok: false; message: string } {
  if (Buffer.byteLength(text) > MAX_SCHEMA_BYTES)
    return { ok: false, message: `the patch is over ${MAX_SCHEMA_BYTES / 1024}KB, the most the API accepts` };
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value === 'string') value = JSON.parse(value);
  } catch {
    return { ok: false, message: 'it is not valid JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: 'a patch is a JSON object (with strategy and tables, …)' };
  // The API's rule for text the database cannot store: refuse it, naming the problem.
  if (text.includes('\u0000') || /\\u0000/i.test(text))
    return { ok: false, message: 'it contains a NUL character (U+0000), which cannot be stored' };
  if (UNPAIRED_SURROGATE.test(JSON.stringify(value)) || /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i.test(text))
    return {
      ok: false,
      message: 'it contains an unpaired UTF-16 surrogate, which is not valid Unicode text',
    };
  return { ok: true, patch: value };
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function editorRequired() {
  return new PageError(403, 'Not allowed', 'Only owners and editors of the team can change this diagram.');
}

/** What the list and the page say of a diagram: importing, failed, or how many tables it has. */
export function statusText(diagram: { status: string; table_count?: number | null }): string {
  if (diagram.status === 'importing') return 'importing';
  if (diagram.status === 'failed') return 'import failed';
  const count = diagram.table_count ?? 0;
  return `${count} ${count === 1 ? 'table' : 'tables'}`;
}

type Warnings = Diagram['warnings'];

/**
 * What the DDL import skipped or changed, folded under a summary line: where (line, column), what
 * (code and message) and the statement's shortened text. Every text is escaped by `html` (statements are
 * the user's SQL and may hold markup).
 */
export function importWarnings(warnings: Warnings | null | undefined): Html | string {
  const total = warnings?.total ?? 0;
  if (!warnings || total === 0) return '';
  const items = warnings.items ?? [];
  const more = total - items.length;
  return html`<details class="import-warnings" id="import-warnings">
<summary>The SQL import skipped or changed ${total} ${total === 1 ? 'thing' : 'things'}</summary>
<ol>${items.map(
    (item) =>
      html`<li><span class="where">line ${String(item.line)}, column ${String(item.column)}</span> <code>${item.code}</code> ${item.message}${
        item.statement ? html`<pre class="statement">${item.statement}</pre>` : ''
      }</li>`,
  )}</ol>
${more > 0 ? html`<p>… and ${String(more)} more not listed.</p>` : ''}
</details>`;
}

async function drawing(
  diagram: { uuid: string; name: string; status: string; error?: { code: string; message: string } | null },
  document: PageDrawing | null,
  view: { copies: boolean; toggle?: string },
): Promise<Html> {
  if (!document)
    return diagram.status === 'importing'
      ? html`<p class="notice">This diagram is still importing; reload in a moment.</p>`
      : html`<div class="notice error" role="alert"><p>The import failed, so there is nothing to draw.</p>
${diagram.error ? html`<p><code>${diagram.error.code}</code>: ${diagram.error.message}</p>` : ''}
<p>Fix the SQL and create the diagram again.</p></div>`;
  // The renderer escapes every text it draws (names, comments, notes) and emits no script.
  // A new version of a large diagram is drawn ahead (new-version-drawings.ts): svg waits for that drawing.
  return drawingFigure(await document.svg(diagram.name), view);
}
