// Mermaid's own reading of a Mermaid ER text, in a Chromium page: the drawing Mermaid renders (entities
// and relationship lines counted in its SVG) and the cardinalities it parsed for each line ("cardB cardA":
// cardB is the end beside the first, referencing entity). A text Mermaid cannot parse rejects.
import * as path from 'node:path';
import type { Page } from 'playwright-core';

export interface MermaidReading {
  entities: number;
  lines: number;
  ends: string[];
}

export async function readWithMermaid(page: Page, text: string): Promise<MermaidReading> {
  // Mermaid's 3 MB bundle is loaded into a page that does not hold it yet (its parse alone takes seconds
  // on a loaded machine), so a page that reads several texts loads it once; a page that went elsewhere
  // since has lost it and loads it again.
  if (!(await page.evaluate(() => 'mermaid' in window))) {
    await page.setContent('<!doctype html><html><body><div id="out"></div></body></html>');
    await page.addScriptTag({
      path: path.join(require.resolve('mermaid/package.json'), '../dist/mermaid.min.js'),
    });
  }
  return page.evaluate(async (source) => {
    const mermaid = (
      window as unknown as {
        mermaid: {
          initialize(o: object): void;
          render(id: string, text: string): Promise<{ svg: string }>;
          mermaidAPI: {
            getDiagramFromText(text: string): Promise<{
              db: { getRelationships(): { relSpec: { cardA: string; cardB: string } }[] };
            }>;
          };
        };
      }
    ).mermaid;
    mermaid.initialize({ startOnLoad: false, maxTextSize: 10_000_000, maxEdges: 100_000 });
    const { svg } = await mermaid.render('er', source);
    const root = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const parsed = await mermaid.mermaidAPI.getDiagramFromText(source);
    return {
      entities: root.querySelectorAll('g.node, g[id^="entity-"]').length,
      lines: root.querySelectorAll('path.relationshipLine, path.er.relationshipLine').length,
      ends: parsed.db
        .getRelationships()
        .map((line) => `${line.relSpec.cardB} ${line.relSpec.cardA}`)
        .sort(),
    };
  }, text);
}
