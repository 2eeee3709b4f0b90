// The /draw page script (bundled by scripts/bundle.js into dist/browser/draw.js). It reads the patch from
// the address fragment, which browsers never send to a server, and puts the drawing or the problems on the
// page; it makes no request of any kind. Page contract (README): <ul id="problems"> and <div id="diagram">.
import { type DrawProblem, drawFromLocation } from '../draw-page';
import { enableViewports } from './viewport';

function show(): void {
  const diagram = document.getElementById('diagram');
  const problems = document.getElementById('problems');
  if (diagram === null || problems === null) return;
  const result = drawFromLocation(window.location.hash, window.location.search);
  const items: HTMLLIElement[] = [];
  if (result.ok) {
    // A figure of its own, so the drawing gets zoom and pan like every other diagram of the app.
    const figure = document.createElement('figure');
    figure.className = 'diagram';
    figure.appendChild(parseSvg(result.svg));
    diagram.replaceChildren(figure);
    enableViewports(diagram);
  } else {
    diagram.replaceChildren();
    items.push(listItem('dss-draw-error', result.message));
    for (const problem of result.problems) items.push(listItem('dss-draw-problem', describe(problem)));
  }
  for (const warning of result.warnings) items.push(listItem('dss-draw-warning', describe(warning)));
  problems.replaceChildren(...items);
  problems.hidden = items.length === 0;
  diagram.dataset['state'] = result.ok ? 'drawn' : result.reason;
}

/** The SVG as a node, parsed as XML (never as HTML), in a document where nothing runs. */
function parseSvg(svg: string): Node {
  const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml');
  return document.importNode(parsed.documentElement, true);
}

function listItem(className: string, text: string): HTMLLIElement {
  const item = document.createElement('li');
  item.className = className;
  item.textContent = text;
  return item;
}

function describe(problem: DrawProblem): string {
  return problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;
}

// The page loads this script with `defer`; should it ever run before the body is parsed, wait for it.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
else show();
window.addEventListener('hashchange', show);
