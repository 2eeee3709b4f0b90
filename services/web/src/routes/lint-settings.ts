// `/settings/lint`: each of the person's teams with its lint settings (the same JSON as the API's
// /lint-settings and the CLI's dss.lint.json) and the rule list. Owners edit the settings here; the
// proposals service checks the role again and refuses settings it cannot read, naming each setting.
import { isServiceError } from '@dss/platform';
import { lintRuleList } from '@dss/schema';
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { type Html, html } from '../html';
import { forbidden } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import { csrfField, page, timestamp } from '../views/layout';

interface Refusal {
  team: string;
  text: string;
  problems: { path: string; message: string }[];
}

export function lintSettingsRoutes(router: Router, context: WebAppContext): void {
  const { proposals } = context.clients;

  async function render(req: Request, res: Response, refusal?: Refusal, status = 200) {
    const viewer = viewerOf(res)!;
    const csrfToken = csrfTokenFor(context, req, res);
    const teams = await Promise.all(
      viewer.memberships.map(async (membership) => ({
        membership,
        settings: await proposals.GetLintSettings({ team_id: membership.team_id, user_id: viewer.user.id }),
      })),
    );
    res.status(status).send(
      page(
        { title: 'Lint rules', viewer: { ...viewer.user, csrfToken } },
        html`<main>
<h1>Lint rules</h1>
<p>Each team's rules check its diagrams, its proposals (shown on the review page) and the CLI's <code>dss lint</code> and <code>dss check</code>. Severities are <code>error</code>, <code>warning</code> or <code>off</code>; with <code>require_no_errors</code> a proposal with lint errors cannot be applied.</p>
${teams.map(({ membership, settings }) => {
  const owner = membership.role === 'owner';
  const failed = refusal?.team === membership.team_slug ? refusal : undefined;
  const text = failed?.text ?? JSON.stringify(JSON.parse(settings.settings_json), null, 2);
  return html`<section class="card stack" id="lint-${membership.team_slug}">
<h2>${membership.team_name}</h2>
<p class="meta">${settings.updated_at ? html`Saved ${timestamp(settings.updated_at)}` : 'The defaults: never saved.'}</p>
${failed ? problemsView(failed.problems) : ''}
${
  owner
    ? html`<form method="post" action="/settings/lint/${membership.team_slug}" class="stack">${csrfField(csrfToken)}
<label>Settings (JSON) <textarea name="settings" rows="14" spellcheck="false" class="code">${text}</textarea></label>
<button type="submit" class="primary">Save</button></form>`
    : html`<pre class="code">${text}</pre><p class="muted">Owners of the team change these.</p>`
}
</section>`;
})}
<h2>Rules</h2>
<table class="list" id="lint-rules"><thead><tr><th>Rule</th><th>Default</th><th>What it checks</th></tr></thead>
<tbody>${lintRuleList().map(
          (rule) =>
            html`<tr data-rule="${rule.id}"><td><code>${rule.id}</code></td><td>${rule.default_severity}</td><td>${rule.documentation}</td></tr>`,
        )}</tbody></table>
</main>`,
      ).text,
    );
  }

  router.get('/settings/lint', requireViewer, (req, res) => render(req, res));

  router.post('/settings/lint/:team', requireViewer, async (req, res) => {
    const viewer = viewerOf(res)!;
    const membership = viewer.memberships.find((candidate) => candidate.team_slug === req.params.team);
    if (!membership) throw forbidden('You are not a member of that team.');
    const raw = (req.body as Record<string, unknown>).settings;
    const text = typeof raw === 'string' ? raw : '';
    try {
      await proposals.SetLintSettings({
        team_id: membership.team_id,
        user_id: viewer.user.id,
        settings_json: text,
      });
    } catch (error) {
      if (isServiceError(error) && (error.code === 'invalid_request' || error.code === 'forbidden'))
        return render(
          req,
          res,
          {
            team: membership.team_slug,
            text,
            problems: error.extra.errors ?? [{ path: 'settings', message: error.message }],
          },
          error.code === 'forbidden' ? 403 : 422,
        );
      throw error;
    }
    res.redirect(303, '/settings/lint');
  });
}

function problemsView(problems: Refusal['problems']): Html {
  return html`<div class="notice error" role="alert" id="lint-settings-problems"><p>The settings were not saved:</p>
<ul class="problems">${problems.map((problem) => html`<li><code>${problem.path}</code> ${problem.message}</li>`)}</ul></div>`;
}
