// The page frame every page shares: header with the theme toggle, the signed-in person and sign-out, main
// content, no inline script or style (the CSP forbids both; theme.js runs blocking in <head> so the chosen
// theme is there before the first paint). `stylesheets`/`scripts` name extra files under /assets.
import { type Html, html } from '../html';

export interface PageChrome {
  title: string;
  /** The signed-in person and the CSRF token of their session; absent on public pages. */
  viewer?: { name: string; email: string; csrfToken: string };
  stylesheets?: string[];
  scripts?: string[];
  /** A class on <body> (e.g. `embed` for the chrome-less view). */
  bodyClass?: string;
  /** Keep search engines away (share-link pages). */
  noindex?: boolean;
}

export function page(chrome: PageChrome, content: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${chrome.noindex ? html`<meta name="robots" content="noindex, nofollow">\n` : ''}<title>${chrome.title} · Diagram Schema Service</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<script src="/assets/theme.js"></script>
<link rel="stylesheet" href="/assets/app.css">
${(chrome.stylesheets ?? []).map((href) => html`<link rel="stylesheet" href="${href}">\n`)}
${(chrome.scripts ?? []).map((src) => html`<script src="${src}" defer></script>\n`)}
</head>
<body${chrome.bodyClass ? html` class="${chrome.bodyClass}"` : ''}>
${chrome.bodyClass === 'embed' ? '' : header(chrome)}
${content}
</body>
</html>
`;
}

function header(chrome: PageChrome): Html {
  return html`<header class="top">
<a class="brand" href="/">Diagram Schema Service</a>
<div class="top-tools">
<button type="button" class="theme-toggle" data-theme-toggle aria-pressed="false" hidden>Dark mode</button>
${
  chrome.viewer
    ? html`<nav>
<a href="/">Diagrams</a>
<a href="/trash">Trash</a>
<a href="/settings/tokens">API tokens</a>
<a href="/settings/webhooks">Webhooks</a>
<a href="/settings/team">Team</a>
<a href="/settings/lint">Lint rules</a>
<a href="/settings/audit">Audit log</a>
<span class="who" title="${chrome.viewer.email}">${chrome.viewer.name}</span>
<form method="post" action="/sign-out" class="inline">
<input type="hidden" name="_csrf" value="${chrome.viewer.csrfToken}">
<button type="submit" class="link">Sign out</button>
</form>
</nav>`
    : ''
}
</div>
</header>`;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** A timestamp as readable UTC text inside <time>, the ISO value kept in `datetime`. */
export function timestamp(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return html`${iso}`;
  const text = `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return html`<time datetime="${date.toISOString()}">${text}</time>`;
}

export function messagePage(
  chrome: PageChrome,
  heading: string,
  message: string,
  link: { href: string; text: string } = { href: '/', text: 'Back to your diagrams' },
): Html {
  return page(
    chrome,
    html`<main class="narrow"><h1>${heading}</h1><p>${message}</p><p><a href="${link.href}">${link.text}</a></p></main>`,
  );
}
