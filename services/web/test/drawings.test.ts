// The web app's drawings kept by content: the same document and options give the renderer's own bytes
// without drawing again; another version, highlight or title is drawn anew; the byte budget holds.
import { emptyHighlight, renderDiagramSvg } from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';
import { documentFrom, shopPatch } from '../../../packages/diagram-svg/test/fixtures';
import { DrawingCache } from '../src/drawings';

const shop = () => documentFrom(shopPatch).document;

/** The real renderer, counted. */
function countedRenderer() {
  const counted = { calls: 0 };
  const draw = (document: DiagramDocument, options: Parameters<typeof renderDiagramSvg>[1]) => {
    counted.calls += 1;
    return renderDiagramSvg(document, options);
  };
  return { counted, draw };
}

describe('DrawingCache', () => {
  it('answers a second view of the same version with the same bytes and draws it once', () => {
    const { counted, draw } = countedRenderer();
    const cache = new DrawingCache(1024 * 1024, draw);
    const first = cache.svg(shop(), { title: 'Shop' });
    // A page view reads the document anew: an equal object, not the same one.
    const second = cache.svg(shop(), { title: 'Shop' });
    expect(second).toBe(first);
    expect(first).toBe(renderDiagramSvg(shop(), { title: 'Shop' }));
    expect(counted.calls).toBe(1);
  });

  it('draws anew for another document, title or highlight', () => {
    const { counted, draw } = countedRenderer();
    const cache = new DrawingCache(1024 * 1024, draw);
    const document = shop();
    const plain = cache.svg(document, { title: 'Shop' });
    const renamed = cache.svg(document, { title: 'Shop, version 2' });
    const highlight = emptyHighlight();
    highlight.tables.set(document.tables[0]!.uuid, 'added');
    const highlighted = cache.svg(document, { title: 'Shop', highlight });
    const moved = shop();
    moved.tables[0]!.comment = 'People who buy, and pay';
    const other = cache.svg(moved, { title: 'Shop' });
    expect(counted.calls).toBe(4);
    expect(new Set([plain, renamed, highlighted, other]).size).toBe(4);
    expect(highlighted).toBe(renderDiagramSvg(document, { title: 'Shop', highlight }));
  });

  it('keeps no more than its byte budget, letting the least recently used drawing go first', () => {
    const { counted, draw } = countedRenderer();
    const one = renderDiagramSvg(shop(), { title: 'a' }).length * 2;
    const cache = new DrawingCache(Math.floor(one * 2.5), draw);
    const document = shop();
    cache.svg(document, { title: 'a' });
    cache.svg(document, { title: 'b' });
    cache.svg(document, { title: 'a' }); // used again: now the most recent
    cache.svg(document, { title: 'c' }); // over budget: 'b' goes
    expect(cache.size.drawings).toBe(2);
    expect(cache.size.bytes).toBeLessThanOrEqual(Math.floor(one * 2.5));
    const before = counted.calls;
    cache.svg(document, { title: 'a' });
    expect(counted.calls).toBe(before);
    cache.svg(document, { title: 'b' });
    expect(counted.calls).toBe(before + 1);
  });
});
