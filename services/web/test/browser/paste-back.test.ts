/// <reference lib="dom" />
// The paste-back box on the diagram page: an editor pastes a schema patch, sees its problems with their
// paths or a preview (diff and highlighted diagram) first, and applies it as a new version; applying
// over a diagram that changed since the preview is refused with a clear message; a viewer has no box.
import { type TestMember, twoTableShopPatch } from '@dss/system';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { api, createDiagram, createPerson, propose, type WebTestSystem } from '../support/web-system';

const ADD_INVOICES = {
  strategy: 'additive',
  tables: [{ name: 'invoices', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
};

describe('the paste-back box (Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let editor: TestMember;
  let viewer: TestMember;
  let diagramUuid: string;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('paste');
    editor = await createPerson(web, 'paste', 'editor', 'Pat Paster');
    viewer = await createPerson(web, 'paste', 'viewer', 'Vera Viewer');
    diagramUuid = await createDiagram(web, editor, twoTableShopPatch());
  });

  const tables = async () =>
    (
      (await api(web, editor.token, 'GET', `/diagrams/${diagramUuid}/schema`)).body.data as {
        tables: { name: string }[];
      }
    ).tables.map((table) => table.name);

  it('shows the problems of an invalid patch with their paths, and writes nothing', async () => {
    const page = await suite.signedInPage(editor, `/diagrams/${diagramUuid}`);
    await page.click('.paste-box summary');
    await page.fill(
      '#paste-form textarea',
      JSON.stringify({ strategy: 'merge', tables: [{ name: 'x', columns: [{ name: 'id' }] }] }),
    );
    await Promise.all([page.waitForLoadState('load'), page.click('#paste-form button')]);
    const problems = await page.textContent('#paste-problems');
    expect(problems).toContain('tables[0].columns[0].type');
    expect(await page.locator('#paste-apply-form').count()).toBe(0);
    await page.fill('#paste-form textarea', '{not json');
    await Promise.all([page.waitForLoadState('load'), page.click('#paste-form button')]);
    expect(await page.textContent('#paste-problems')).toContain('not valid JSON');
    expect(await tables()).not.toContain('x');
  });

  it('previews a patch (given as a JSON string too) with its diff and diagram, then applies it as a version', async () => {
    const page = await suite.signedInPage(editor, `/diagrams/${diagramUuid}`);
    await page.click('.paste-box summary');
    await page.fill('#paste-form textarea', JSON.stringify(JSON.stringify(ADD_INVOICES)));
    await Promise.all([page.waitForLoadState('load'), page.click('#paste-form button')]);
    expect(await page.textContent('.changes-section')).toContain('invoices');
    expect(await page.locator('#diagram g.dss-table.dss-added[data-table="invoices"]').count()).toBe(1);
    expect(await tables()).not.toContain('invoices');
    await saveScreenshot(page, 'paste-preview');
    await Promise.all([
      page.waitForURL(`${web.webUrl}/diagrams/${diagramUuid}`),
      page.click('#paste-apply-form button'),
    ]);
    expect(await tables()).toContain('invoices');
    expect(await page.textContent('.history .versions')).toContain('applied a pasted patch');
  });

  it('refuses to apply over a diagram that changed since the preview, saying so', async () => {
    const page = await suite.signedInPage(editor, `/diagrams/${diagramUuid}`);
    await page.click('.paste-box summary');
    const addRefunds = {
      strategy: 'additive',
      tables: [{ name: 'refunds', columns: [{ name: 'id', type: 'bigint' }] }],
    };
    await page.fill('#paste-form textarea', JSON.stringify(addRefunds));
    await Promise.all([page.waitForLoadState('load'), page.click('#paste-form button')]);
    // Meanwhile someone else changes the diagram (a proposal applied through the CLI's service).
    const proposal = await propose(web, editor, diagramUuid, {
      title: 'Add credits',
      message: 'Meanwhile.',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'credits', columns: [{ name: 'id', type: 'bigint' }] }],
      },
    });
    const other = await suite.signedInPage(editor, `/review/${proposal.uuid}`);
    await Promise.all([other.waitForLoadState('load'), other.click('button:has-text("Apply changes")')]);
    await Promise.all([page.waitForLoadState('load'), page.click('#paste-apply-form button')]);
    expect(await page.textContent('#paste-conflict')).toMatch(/changed since this patch was previewed/);
    expect(await tables()).not.toContain('refunds');
    // The new preview is made against the diagram as it is now, and applies.
    await Promise.all([
      page.waitForURL(`${web.webUrl}/diagrams/${diagramUuid}`),
      page.click('#paste-apply-form button'),
    ]);
    expect(await tables()).toEqual(expect.arrayContaining(['refunds', 'credits']));
  });

  it('gives a viewer no box, and refuses a viewer who posts anyway', async () => {
    const page = await suite.signedInPage(viewer, `/diagrams/${diagramUuid}`);
    expect(await page.locator('.paste-box').count()).toBe(0);
    const csrf = await page.evaluate(
      () => (document.querySelector('input[name=_csrf]') as HTMLInputElement | null)?.value ?? '',
    );
    const status = await page.evaluate(
      async ({ uuid, token }) => {
        const response = await fetch(`/diagrams/${uuid}/paste`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: token, patch: '{}' }).toString(),
        });
        return response.status;
      },
      { uuid: diagramUuid, token: csrf },
    );
    expect(status).toBe(403);
  });
});
