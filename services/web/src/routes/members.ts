// `/settings/team/{slug}/members`: a team's members and open invitations. Every member sees the list;
// owners invite by email (the link is always shown to copy, and emailed when SMTP is configured), change
// roles, remove members (their tokens of the team end at once) and revoke invitations. accounts refuses a
// change that would leave the team without an owner.
import type { Request, Response, Router } from 'express';
import type { WebAppContext } from '../app-context';
import { csrfTokenFor } from '../csrf';
import { html } from '../html';
import { forbidden, notFound } from '../page-errors';
import { requireViewer, viewerOf } from '../session';
import type { Membership } from '../viewer';
import { csrfField, page, timestamp } from '../views/layout';

const ROLES = ['owner', 'editor', 'viewer'];

export function memberRoutes(router: Router, context: WebAppContext): void {
  const { accounts } = context.clients;

  /** The viewer's membership of the team in the URL; another team is a 404, like anything of it. */
  function membershipIn(req: Request, res: Response): Membership {
    const membership = viewerOf(res)!.memberships.find((m) => m.team_slug === String(req.params.slug));
    if (!membership) throw notFound();
    return membership;
  }

  function ownerOf(req: Request, res: Response): Membership {
    const membership = membershipIn(req, res);
    if (membership.role !== 'owner') throw forbidden('Only owners of the team manage its members.');
    return membership;
  }

  router.get('/settings/team', requireViewer, (_req, res) => {
    const viewer = viewerOf(res)!;
    const first = viewer.memberships.find((m) => m.role === 'owner') ?? viewer.memberships[0];
    if (!first) throw notFound();
    res.redirect(303, `/settings/team/${encodeURIComponent(first.team_slug)}/members`);
  });

  router.get('/settings/team/:slug/members', requireViewer, async (req, res) => {
    const membership = membershipIn(req, res);
    await renderMembers(req, res, membership);
  });

  router.post('/settings/team/:slug/invitations', requireViewer, async (req, res) => {
    const membership = ownerOf(req, res);
    const body = req.body as Record<string, unknown>;
    const created = await accounts.CreateInvitation({
      team_slug: membership.team_slug,
      email: typeof body.email === 'string' ? body.email.trim().slice(0, 320) : '',
      role: typeof body.role === 'string' ? body.role : '',
      invited_by_user_id: viewerOf(res)!.user.id,
    });
    const invitation = created.invitation!;
    const link = new URL(`/invitations/${created.secret}`, context.appUrl).toString();
    let emailed = false;
    if (context.mailer) {
      try {
        await context.mailer.send({
          to: invitation.email,
          subject: `You are invited to ${invitation.team_name}`,
          text: `${viewerOf(res)!.user.email} invites you to team ${invitation.team_name} on Diagram Schema Service as ${invitation.role}.\n\nOpen this link to join (it works once, until ${invitation.expires_at.slice(0, 10)}):\n${link}\n`,
        });
        emailed = true;
      } catch (error) {
        context.logger.error({ err: error }, 'invitation email failed');
      }
    }
    // The secret is on this page only: never cached.
    res.setHeader('Cache-Control', 'no-store');
    await renderMembers(req, res, membership, { link, email: invitation.email, emailed });
  });

  router.post('/settings/team/:slug/members/:userId/role', requireViewer, async (req, res) => {
    const membership = ownerOf(req, res);
    const member = await memberOf(membership.team_slug, String(req.params.userId));
    await accounts.SetMemberRole({
      team_slug: membership.team_slug,
      user_email: member.user_email,
      role: String((req.body as Record<string, unknown>).role ?? ''),
    });
    res.redirect(303, `/settings/team/${encodeURIComponent(membership.team_slug)}/members`);
  });

  router.post('/settings/team/:slug/members/:userId/remove', requireViewer, async (req, res) => {
    const membership = ownerOf(req, res);
    const member = await memberOf(membership.team_slug, String(req.params.userId));
    await accounts.RemoveMember({ team_slug: membership.team_slug, user_email: member.user_email });
    const self = member.user_id === viewerOf(res)!.user.id;
    res.redirect(303, self ? '/' : `/settings/team/${encodeURIComponent(membership.team_slug)}/members`);
  });

  // "SSO only": owners turn password sign-in off for the team's members; their password sessions end (not
  // the owner's own, mid-action), their API tokens keep working, new tokens need an SSO session.
  router.post('/settings/team/:slug/sso', requireViewer, async (req, res) => {
    const membership = ownerOf(req, res);
    const ssoOnly = (req.body as Record<string, unknown>).sso_only === 'on';
    if (ssoOnly && !context.sso)
      throw forbidden('This deployment has no single sign-on: its operator configures it first.');
    await accounts.SetTeamSsoOnly({
      team_slug: membership.team_slug,
      sso_only: ssoOnly,
      acting_session_id: viewerOf(res)!.sessionId,
    });
    res.redirect(303, `/settings/team/${encodeURIComponent(membership.team_slug)}/members`);
  });

  router.post('/settings/team/:slug/invitations/:id/revoke', requireViewer, async (req, res) => {
    const membership = ownerOf(req, res);
    await accounts.RevokeInvitation({ id: String(req.params.id), team_slug: membership.team_slug });
    res.redirect(303, `/settings/team/${encodeURIComponent(membership.team_slug)}/members`);
  });

  async function memberOf(teamSlug: string, userId: string): Promise<Membership> {
    const { memberships } = await accounts.ListTeamMembers({ team_slug: teamSlug });
    const member = memberships.find((m) => m.user_id === userId);
    if (!member) throw notFound();
    return member;
  }

  async function renderMembers(
    req: Request,
    res: Response,
    membership: Membership,
    created?: { link: string; email: string; emailed: boolean },
  ): Promise<void> {
    const viewer = viewerOf(res)!;
    const owner = membership.role === 'owner';
    const [{ memberships }, { invitations }, team] = await Promise.all([
      accounts.ListTeamMembers({ team_slug: membership.team_slug }),
      owner ? accounts.ListInvitations({ team_slug: membership.team_slug }) : { invitations: [] },
      accounts.GetTeam({ slug: membership.team_slug, id: '' }),
    ]);
    const csrfToken = csrfTokenFor(context, req, res);
    const base = `/settings/team/${encodeURIComponent(membership.team_slug)}`;
    const ssoSection =
      context.sso || team.sso_only
        ? html`<section class="card" aria-labelledby="sso-heading">
<h2 id="sso-heading">Single sign-on</h2>
${
  owner
    ? html`<form method="post" action="${base}/sso" class="stack">${csrfField(csrfToken)}
<label class="check"><input type="checkbox" name="sso_only"${team.sso_only ? html` checked` : ''}${context.sso ? '' : html` disabled`}> Members sign in with ${context.sso?.settings.providerName ?? 'single sign-on'} only</label>
<p class="muted">Password sign-in then stops for every member of this team (you too: sign in with ${context.sso?.settings.providerName ?? 'single sign-on'} once before turning it on). Members signed in with a password are signed out (you stay signed in until you sign out). Existing API tokens keep working; new ones can be created only after signing in with single sign-on.</p>
<button type="submit">Save sign-in setting</button>
</form>`
    : html`<p>${team.sso_only ? 'Members of this team sign in with single sign-on only.' : 'Members may sign in with a password or with single sign-on.'}</p>`
}
</section>`
        : '';
    res.send(
      page(
        { title: `Members of ${membership.team_name}`, viewer: { ...viewer.user, csrfToken } },
        html`<main>
<h1>Members of ${membership.team_name}</h1>
${
  created
    ? html`<section class="card" aria-labelledby="invited-heading">
<h2 id="invited-heading">Invitation for ${created.email}</h2>
<p role="status">${created.emailed ? 'We emailed this link. You can also copy it:' : 'Copy this link and send it to them:'} it works once, for 7 days.</p>
<label class="copy-field">Invitation link <input type="text" id="invitation-link" value="${created.link}" readonly></label>
</section>`
    : ''
}
${
  owner
    ? html`<form method="post" action="${base}/invitations" class="stack card" id="invite">
${csrfField(csrfToken)}
<h2>Invite someone</h2>
<label>Email address <input type="email" name="email" maxlength="320" required></label>
<label>Role <select name="role">${ROLES.map(
        (role) => html`<option value="${role}"${role === 'editor' ? html` selected` : ''}>${role}</option>`,
      )}</select></label>
<button type="submit" class="primary">Invite</button>
</form>`
    : html`<p class="muted">Only owners of the team invite people and change roles.</p>`
}
${ssoSection}
<h2>Members</h2>
<table class="list" id="members">
<thead><tr><th>Email</th><th>Role</th><th>Member since</th>${owner ? html`<th>Actions</th>` : ''}</tr></thead>
<tbody>${memberships.map(
          (member) => html`<tr data-member="${member.user_id}">
<td>${member.user_email}</td>
<td>${
            owner
              ? html`<form method="post" action="${base}/members/${member.user_id}/role" class="inline">${csrfField(csrfToken)}
<select name="role" aria-label="Role of ${member.user_email}">${ROLES.map(
                  (role) =>
                    html`<option value="${role}"${role === member.role ? html` selected` : ''}>${role}</option>`,
                )}</select>
<button type="submit" aria-label="Change role of ${member.user_email}">Change role</button></form>`
              : member.role
          }</td>
<td>${timestamp(member.created_at)}</td>
${
  owner
    ? html`<td><form method="post" action="${base}/members/${member.user_id}/remove" class="inline">${csrfField(csrfToken)}<button type="submit" class="danger" aria-label="Remove ${member.user_email}">Remove</button></form></td>`
    : ''
}
</tr>`,
        )}</tbody></table>
${
  owner
    ? html`<h2>Open invitations</h2>
${
  invitations.length === 0
    ? html`<p class="muted">No open invitations.</p>`
    : html`<table class="list" id="invitations">
<thead><tr><th>Email</th><th>Role</th><th>Invited by</th><th>Expires</th><th>Actions</th></tr></thead>
<tbody>${invitations.map(
        (invitation) => html`<tr data-invitation="${invitation.id}">
<td>${invitation.email}</td><td>${invitation.role}</td><td>${invitation.invited_by_email}</td><td>${timestamp(invitation.expires_at)}</td>
<td><form method="post" action="${base}/invitations/${invitation.id}/revoke" class="inline">${csrfField(csrfToken)}<button type="submit" class="danger" aria-label="Revoke invitation of ${invitation.email}">Revoke</button></form></td>
</tr>`,
      )}</tbody></table>`
}`
    : ''
}
</main>`,
      ).text,
    );
  }
}
