import { escapeHtml, html, trustedHtml } from '../src/html';

describe('html``', () => {
  it('escapes every interpolated string, so markup in user text stays text', () => {
    const title = '<script>window.__xss=1</script><img src=x onerror="window.__xss=1">';
    expect(html`<h1>${title}</h1>`.text).toBe(
      '<h1>&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;</h1>',
    );
  });

  it('escapes quotes, so a value cannot leave its attribute', () => {
    expect(html`<input value="${`" autofocus onfocus='x`}">`.text).toBe(
      '<input value="&quot; autofocus onfocus=&#39;x">',
    );
  });

  it('keeps nested templates and trusted markup as they are, and joins arrays', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${trustedHtml('<svg></svg>')}`.text).toBe(
      '<ul><li>a&lt;b</li><li>c</li></ul><svg></svg>',
    );
  });

  it('renders null, undefined and false as nothing and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${12}`.text).toBe('012');
  });

  it('escapes the ampersand first, so entities in user text are shown literally', () => {
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });
});
