/// <reference lib="dom" />
// Every page of the web app, as a signed-in person (or a visitor) sees it, passes axe-core's WCAG 2.1 A
// and AA rules without a serious or critical violation: sign-in, home, tokens, New diagram, the diagram
// page, its embed view, a review, /draw, and the editor (editable and read-only).
import { type TestMember, twoTableShopPatch } from '@dss/system';
import { seriousViolations } from '../support/axe';
import { useBrowserSuite } from '../support/browser-suite';
import { createDiagram, createPerson, propose, type WebTestSystem } from '../support/web-system';

describe('accessibility of every page (axe-core in Chromium, whole embedded system)', () => {
  const suite = useBrowserSuite();
  let web: WebTestSystem;
  let owner: TestMember;
  let viewer: TestMember;
  let diagramUuid: string;
  let reviewPath: string;

  beforeAll(async () => {
    web = suite.web;
    await web.people.team('access');
    owner = await createPerson(web, 'access', 'owner', 'Ada Access');
    viewer = await createPerson(web, 'access', 'viewer', 'Val Viewer');
    diagramUuid = await createDiagram(web, owner, twoTableShopPatch(), 'Accessible shop');
    const proposal = await propose(web, owner, diagramUuid, {
      title: 'Add invoices',
      message: 'Invoices for orders.',
      schema: {
        strategy: 'additive',
        tables: [{ name: 'invoices', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
      },
    });
    reviewPath = new URL(proposal.review_url).pathname;
  });

  it('should find no serious or critical violation on the sign-in page', async () => {
    const { page } = await suite.browser.newPage();
    await page.goto(`${web.webUrl}/sign-in`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('should find no serious or critical violation on /draw', async () => {
    const { page } = await suite.browser.newPage();
    const patch = encodeURIComponent(JSON.stringify(twoTableShopPatch()));
    await page.goto(`${web.webUrl}/draw#patch=${patch}`);
    await page.locator('#diagram svg').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it.each([
    ['home', () => '/'],
    ['tokens', () => '/settings/tokens'],
    ['Trash', () => '/trash'],
    ['delete confirmation', () => `/diagrams/${diagramUuid}/delete`],
    ['New diagram', () => '/diagrams/new'],
    ['diagram', () => `/diagrams/${diagramUuid}`],
    ['embed', () => `/embed/${diagramUuid}`],
    ['review', () => reviewPath],
    ['editor', () => `/diagrams/${diagramUuid}/edit`],
  ])('should find no serious or critical violation on the %s page of an owner', async (_name, path) => {
    const page = await suite.signedInPage(owner, path());
    await page.waitForLoadState('load');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('should find no serious or critical violation in the editor with a table panel open, nor read-only', async () => {
    const page = await suite.signedInPage(owner, `/diagrams/${diagramUuid}/edit`);
    await page.getByRole('button', { name: 'Add table' }).click();
    await page.getByRole('button', { name: 'Add column' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    const viewing = await suite.signedInPage(viewer, `/diagrams/${diagramUuid}/edit`);
    await viewing.getByRole('region', { name: 'Diagram' }).waitFor();
    expect(await seriousViolations(viewing)).toEqual([]);
  });
});
