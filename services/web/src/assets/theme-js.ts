// The theme script, served as /assets/theme.js and loaded without `defer` in <head>: it runs before the
// first paint, so a person who chose a theme never sees a flash of the other one (the CSP forbids an inline
// script). A stored choice ("light" or "dark") becomes data-theme on <html>, which the stylesheets'
// custom properties follow; without one they follow prefers-color-scheme. The header's "Dark mode" button
// flips the theme shown; choosing what the system asks for forgets the choice, so the page follows the
// system again.
export const THEME_SCRIPT = `(() => {
  const KEY = 'dss-theme';
  const root = document.documentElement;
  const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
  const stored = () => {
    try { return localStorage.getItem(KEY); } catch { return null; }
  };
  const apply = (choice) => {
    if (choice === 'light' || choice === 'dark') root.setAttribute('data-theme', choice);
    else root.removeAttribute('data-theme');
  };
  const isDark = () => {
    const choice = root.getAttribute('data-theme');
    return choice ? choice === 'dark' : systemDark.matches;
  };
  apply(stored());
  const sync = () => {
    for (const button of document.querySelectorAll('button[data-theme-toggle]')) {
      button.setAttribute('aria-pressed', String(isDark()));
      button.hidden = false;
    }
  };
  systemDark.addEventListener('change', sync);
  document.addEventListener('DOMContentLoaded', () => {
    sync();
    document.addEventListener('click', (event) => {
      const button = event.target instanceof Element ? event.target.closest('button[data-theme-toggle]') : null;
      if (!button) return;
      const wanted = isDark() ? 'light' : 'dark';
      const choice = (wanted === 'dark') === systemDark.matches ? null : wanted;
      try {
        if (choice) localStorage.setItem(KEY, choice);
        else localStorage.removeItem(KEY);
      } catch {}
      apply(choice);
      sync();
    });
  });
})();
`;
