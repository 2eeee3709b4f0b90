// The editor: `/diagrams/new` (the "New diagram" form: empty, from SQL or from DBML), `/diagrams/{uuid}/edit`
// (the page the @dss/editor bundle turns into an editor, live through /assets/live.js with a presence bar;
// viewers get it read-only), and
// `POST /diagrams/{uuid}/edits`, where the page's autosave sends the patch of its unsaved edits (JSON,
// CSRF token in a header) to be written as a version of source `editor` on the version it started from, and
// `POST /diagrams/{uuid}/dbml`, where the editor's DBML pane sends the text a person typed to be read by the
// importer (the same conversion as a diagram created from DBML); the page turns the answer into one edit.
import { isServiceError } from '@dss/platform';
import { DRIVERS, MAX_DDL_BYTES } from '@dss/schema';
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { html, trustedHtml } from '../html';
import { findVisibleDiagram, fullDocument } from '../lookups';
import { PageError, pageStatusOf } from '../page-errors';
import { titled } from '../drawings';
import { pageDrawings } from '../page-drawing';
import { requireViewer, viewerOf } from '../session';
import { canEdit, membershipOf, principalFor } from '../viewer';
import { csrfField, page } from '../views/layout';
import { importWarnings } from './diagram';

const DATABASES = [
  { driver: 'mysql', label: 'MySQL' },
  { driver: 'pgsql', label: 'PostgreSQL' },
  { driver: 'sqlsrv', label: 'SQL Server' },
] as const;
/** How long the create waits for a SQL or DBML import before opening the editor on an importing diagram. */
const IMPORT_WAIT_MS = 5000;
/** How long the DBML pane's read may take: the importer's conversion time limit and a queue for a worker. */
const PARSE_DEADLINE_MS = 45_000;

export function editorRoutes(router: Router, context: WebAppContext): void {
  const { clients } = context;

  router.get('/diagrams/new', requireViewer, (req, res) => newDiagramPage(req, res));

  router.post('/diagrams/new', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const form = req.body as Record<string, unknown>;
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const membership = membershipOf(viewer, text('team')) ?? viewer.memberships[0];
    if (!membership) throw new PageError(403, 'Not allowed', 'You are not a member of any team yet.');
    if (!canEdit(membership.role))
      return newDiagramPage(req, res, 'Only owners and editors of a team can create its diagrams.', 403);
    const driver = (DRIVERS as readonly string[]).includes(text('driver')) ? text('driver') : 'mysql';
    const start = text('start');
    const source = text('source');
    if (start !== 'empty' && source.trim() === '')
      return newDiagramPage(req, res, 'Paste the SQL or DBML, or choose a file, to start from it.', 422);
    if (start !== 'empty' && Buffer.byteLength(source) > MAX_DDL_BYTES)
      return newDiagramPage(
        req,
        res,
        `The text is larger than ${MAX_DDL_BYTES / 1024}KB, the most an import takes.`,
        413,
      );
    try {
      const created = await clients.diagrams.CreateDiagram({
        principal: { ...principalFor(viewer, membership), token_id: `web:${viewer.user.id}` },
        name: text('name'),
        driver,
        wait_ms: IMPORT_WAIT_MS,
        ...(start === 'empty' ? { empty: true } : start === 'dbml' ? { dbml: source } : { ddl: source }),
      });
      res.redirect(303, `/diagrams/${created.diagram!.uuid}/edit`);
    } catch (error) {
      if (isServiceError(error) && pageStatusOf(error.code) !== undefined && error.code !== 'not_found')
        return newDiagramPage(req, res, error.message, pageStatusOf(error.code)!);
      throw error;
    }
  });

  function newDiagramPage(req: Request, res: Response, problem?: string, status = 200) {
    const viewer = viewerOf(res)!;
    const csrfToken = csrfTokenFor(context, req, res);
    const form = (req.method === 'POST' ? req.body : {}) as Record<string, unknown>;
    const value = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const start = value('start') || 'empty';
    const teams = viewer.memberships.filter((membership) => canEdit(membership.role));
    res.status(status).send(
      page(
        { title: 'New diagram', viewer: { ...viewer.user, csrfToken }, scripts: ['/assets/new-diagram.js'] },
        html`<main class="narrow">
<h1>New diagram</h1>
${problem ? html`<div class="notice error" role="alert" id="new-diagram-problem"><p>${problem}</p></div>` : ''}
<form method="post" action="/diagrams/new" class="stack" id="new-diagram-form">
${csrfField(csrfToken)}
<label>Name <input name="name" maxlength="200" required value="${value('name')}"></label>
${
  teams.length > 1
    ? html`<label>Team <select name="team">${teams.map(
        (team) => html`<option value="${team.team_id}">${team.team_name}</option>`,
      )}</select></label>`
    : html`<input type="hidden" name="team" value="${teams[0]?.team_id ?? ''}">`
}
<label>Database <select name="driver">${DATABASES.map(
          ({ driver, label }) =>
            html`<option value="${driver}"${value('driver') === driver ? ' selected' : ''}>${label}</option>`,
        )}</select></label>
<fieldset><legend>Start</legend>
${[
  ['empty', 'Empty'],
  ['sql', 'From SQL'],
  ['dbml', 'From DBML'],
].map(
  ([key, label]) =>
    html`<label class="choice"><input type="radio" name="start" value="${key!}"${start === key ? ' checked' : ''}> ${label!}</label>`,
)}
</fieldset>
<label>SQL or DBML (up to ${String(MAX_DDL_BYTES / 1024)}KB) <textarea name="source" rows="10" spellcheck="false">${value('source')}</textarea></label>
<label>Or read it from a file <input type="file" id="source-file" accept=".sql,.dbml,.txt,text/plain"></label>
<p class="muted" id="source-file-status" role="status"></p>
<button type="submit" class="primary">Create diagram</button>
</form>
</main>`,
      ).text,
    );
  }

  router.get('/diagrams/:uuid/edit', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    const principal = principalFor(viewer, membership);
    const [current, versions] = await Promise.all([
      pageDrawings.withDocument(clients, principal, diagram),
      clients.diagrams.ListVersions({ principal, uuid: diagram.uuid }),
    ]);
    const document = current?.document ?? null;
    const csrfToken = csrfTokenFor(context, req, res);
    const editable = canEdit(membership.role) && document !== null;
    // The document travels as a JSON data block (never run); `<` is escaped so no text in it can end the element.
    const data = JSON.stringify(document).replace(/</g, '\\u003c');
    // With the server's drawing of it (kept by content: drawings.ts), in an inert <template> the page adopts
    // as its first drawing (its text escaped as on the diagram page), and that drawing's routing, escaped as
    // the document is (relationship uuids are in it), from which the editor builds what it patches.
    const drawing = await current?.drawing();
    const routes =
      drawing?.routes === undefined ? '' : JSON.stringify(drawing.routes).replace(/</g, '\\u003c');
    const svg = drawing === undefined ? '' : titled(drawing, diagram.name);
    res.send(
      page(
        {
          title: `Edit ${diagram.name}`,
          viewer: { ...viewer.user, csrfToken },
          stylesheets: ['/assets/diagram.css', '/assets/editor.css'],
          // live.js holds the live connection; the editor listens to its dss:live-* events.
          scripts: document === null ? ['/assets/editor.js'] : ['/assets/editor.js', '/assets/live.js'],
          bodyClass: 'editing',
        },
        html`<main class="editor-page">
<p class="crumbs"><a href="/">${membership.team_name}</a> / <a href="/diagrams/${diagram.uuid}">${diagram.name}</a> /</p>
<h1>${diagram.name} <span class="badge">${diagram.driver}</span>${editable ? '' : html` <span class="badge">read-only</span>`}</h1>
${importWarnings(diagram.warnings)}
${
  document === null
    ? html`<p class="notice" id="editor-importing" role="status" data-status="${diagram.status}">${
        diagram.status === 'importing'
          ? 'Importing the SQL… the editor opens when it is done.'
          : `The import failed${diagram.error ? `: ${diagram.error.message}` : ''}.`
      }</p>`
    : html`<section id="editor-presence" class="live" aria-label="People here" data-state="connecting">
<p class="presence-state" aria-live="polite">Connecting…</p>
<ul class="presence-people" aria-label="Also here"></ul>
</section>
<div id="editor" data-diagram="${diagram.uuid}" data-driver="${diagram.driver}" data-version="${versions.versions[0]?.uuid ?? ''}" data-editable="${editable ? 'true' : 'false'}" data-csrf="${csrfToken}"></div>
<script type="application/json" id="editor-document">${trustedHtml(data)}</script>
<script type="application/json" id="editor-routes">${trustedHtml(routes)}</script>
<template id="editor-drawing">${trustedHtml(svg)}</template>`
}
</main>`,
      ).text,
    );
  });

  router.post('/diagrams/:uuid/dbml', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    if (!canEdit(membership.role))
      return void res
        .status(403)
        .json({ code: 'forbidden', message: 'Only owners and editors can change this diagram.' });
    const dbml = ((req.body ?? {}) as Record<string, unknown>).dbml;
    if (typeof dbml !== 'string')
      return void res.status(400).json({ code: 'invalid_request', message: 'dbml must be a string of DBML' });
    if (Buffer.byteLength(dbml) > MAX_DDL_BYTES)
      return void res.status(413).json({
        code: 'payload_too_large',
        message: `The DBML is larger than ${MAX_DDL_BYTES / 1024}KB, the most an import takes.`,
      });
    // The importer's own time limit (30 s by default) ends a conversion first; a request waits for a free worker.
    const parsed = await clients.importer.ParseDdl(
      { driver: diagram.driver, ddl: dbml, format: 'dbml' },
      { deadlineMs: PARSE_DEADLINE_MS },
    );
    if (parsed.document_json === undefined) {
      const code = parsed.error_code ?? 'ddl_internal_error';
      const message = parsed.error_message ?? 'the DBML could not be read';
      if (code === 'ddl_internal_error' || code === 'ddl_timeout')
        return void res.status(503).json({ code, message });
      return void res.status(422).json({
        code,
        message,
        ...(parsed.error_line !== undefined
          ? { line: parsed.error_line, column: parsed.error_column ?? 1 }
          : {}),
      });
    }
    res.json({
      document: JSON.parse(parsed.document_json) as unknown,
      warnings: parsed.warnings?.items ?? [],
      warnings_total: parsed.warnings?.total ?? 0,
    });
  });

  router.post('/diagrams/:uuid/edits', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const { diagram, membership } = await findVisibleDiagram(clients, viewer, String(req.params.uuid));
    if (!canEdit(membership.role))
      return void res
        .status(403)
        .json({ code: 'forbidden', message: 'Only owners and editors can change this diagram.' });
    const body = (req.body ?? {}) as Record<string, unknown>;
    const patch = body.patch;
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
      return void res.status(400).json({ code: 'invalid_request', message: 'patch must be a JSON object' });
    const notePositions = body.note_positions;
    try {
      const applied = await clients.diagrams.ApplyPatch({
        diagram_uuid: diagram.uuid,
        team_id: membership.team_id,
        user_id: viewer.user.id,
        patch_json: JSON.stringify(patch),
        source: 'editor',
        source_id: '',
        base_version_uuid: typeof body.base_version_uuid === 'string' ? body.base_version_uuid : '',
        note_positions_json:
          notePositions && typeof notePositions === 'object' ? JSON.stringify(notePositions) : '',
        colors_json: body.colors === undefined ? '' : JSON.stringify(body.colors),
        column_order_json: body.column_order === undefined ? '' : JSON.stringify(body.column_order),
        ...(typeof membership.caps?.max_tables_per_diagram === 'number'
          ? { max_tables_per_diagram: membership.caps.max_tables_per_diagram }
          : {}),
      });
      const document = await fullDocument(clients, viewer, membership, applied.diagram ?? diagram);
      res.json({ version_uuid: applied.version_uuid, document });
    } catch (error) {
      const status = isServiceError(error) ? pageStatusOf(error.code) : undefined;
      if (!isServiceError(error) || status === undefined || status >= 500) throw error;
      // The engine's own words and members (`errors`, and whatever names the conflicting entity).
      const { retry_after_seconds: _hidden, ...members } = error.extra;
      res.status(status).json({ code: error.code, message: error.message, ...members });
    }
  });
}
