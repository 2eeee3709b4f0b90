// The web app's drawings kept by content: the same document and highlight give the renderer's own bytes
// without drawing again, whatever title each page gives it; another version or highlight is drawn anew; a
// page asking for content a worker is drawing waits for that drawing; the byte budget holds.
import { type DiagramHighlight, emptyHighlight, renderDiagramSvg } from '@dss/diagram-svg';
import type { DiagramDocument } from '@dss/schema';
import { documentFrom, shopPatch } from '../../../packages/diagram-svg/test/fixtures';
import { contentKey, DrawingCache, drawUntitled, type UntitledDrawing } from '../src/drawings';

const shop = () => documentFrom(shopPatch).document;

/** The real renderer, counted. */
function countedRenderer() {
  const counted = { calls: 0 };
  const draw = (document: DiagramDocument, highlight?: DiagramHighlight) => {
    counted.calls += 1;
    return drawUntitled(document, highlight);
  };
  return { counted, draw };
}

describe('DrawingCache', () => {
  describe('.svg()', () => {
    it('answers a second view of the same version with the same bytes and draws it once', () => {
      const { counted, draw } = countedRenderer();
      const cache = new DrawingCache(1024 * 1024, draw);
      const first = cache.svg(shop(), { title: 'Shop' });
      // A page view reads the document anew: an equal object, not the same one.
      const second = cache.svg(shop(), { title: 'Shop' });
      expect(second).toBe(first);
      expect(first).toBe(renderDiagramSvg(shop(), { title: 'Shop' }));
      expect(counted.calls).toBe(1);
      expect(cache.counts).toMatchObject({ hits: 1, drawn: 1 });
    });

    it('serves one drawing under every page’s title, each byte-equal to the renderer’s', () => {
      const { counted, draw } = countedRenderer();
      const cache = new DrawingCache(1024 * 1024, draw);
      const titles = ['Shop', 'Shop, version 2', 'Tom & Jerry’s <shop> "v2"', undefined];
      for (const title of titles)
        expect(cache.svg(shop(), title === undefined ? {} : { title })).toBe(
          renderDiagramSvg(shop(), title === undefined ? {} : { title }),
        );
      expect(counted.calls).toBe(1);
    });

    it('draws anew for another document or highlight', () => {
      const { counted, draw } = countedRenderer();
      const cache = new DrawingCache(1024 * 1024, draw);
      const document = shop();
      const plain = cache.svg(document, { title: 'Shop' });
      const highlight = emptyHighlight();
      highlight.tables.set(document.tables[0]!.uuid, 'added');
      const highlighted = cache.svg(document, { title: 'Shop', highlight });
      const changed = shop();
      changed.tables[0]!.comment = 'People who buy, and pay';
      const other = cache.svg(changed, { title: 'Shop' });
      expect(counted.calls).toBe(3);
      expect(new Set([plain, highlighted, other]).size).toBe(3);
      expect(highlighted).toBe(renderDiagramSvg(document, { title: 'Shop', highlight }));
    });

    it('keeps no more than its byte budget, letting the least recently used drawing go first', () => {
      const { counted, draw } = countedRenderer();
      const one = renderDiagramSvg(shop(), { title: '' }).length * 2;
      const cache = new DrawingCache(Math.floor(one * 2.5), draw);
      const versions = ['a', 'b', 'c'].map((name) => {
        const document = shop();
        document.tables[0]!.comment = name;
        return document;
      });
      const [a, b, c] = versions as [DiagramDocument, DiagramDocument, DiagramDocument];
      cache.svg(a);
      cache.svg(b);
      cache.svg(a); // used again: now the most recent
      cache.svg(c); // over budget: b goes
      expect(cache.size.drawings).toBe(2);
      expect(cache.size.bytes).toBeLessThanOrEqual(Math.floor(one * 2.5));
      const before = counted.calls;
      cache.svg(a);
      expect(counted.calls).toBe(before);
      cache.svg(b);
      expect(counted.calls).toBe(before + 1);
    });
  });

  describe('contentKey()', () => {
    it('names equal content alike and tells documents and highlights apart', () => {
      const highlight = emptyHighlight();
      highlight.tables.set(shop().tables[0]!.uuid, 'added');
      const other = emptyHighlight();
      other.tables.set(shop().tables[0]!.uuid, 'removed');
      const changed = shop();
      changed.tables[0]!.comment = 'changed';
      expect(contentKey(shop())).toBe(contentKey(shop()));
      expect(contentKey(shop(), emptyHighlight())).not.toBe(contentKey(shop()));
      const keys = [
        contentKey(shop()),
        contentKey(changed),
        contentKey(shop(), highlight),
        contentKey(shop(), other),
      ];
      expect(new Set(keys).size).toBe(4);
    });
  });

  describe('.svgSoon()', () => {
    it('waits for the drawing a worker is making of the same content instead of drawing it again', async () => {
      const { counted, draw } = countedRenderer();
      const cache = new DrawingCache(1024 * 1024, draw);
      let finish: (drawing: UntitledDrawing) => void = () => {};
      const working = new Promise<UntitledDrawing>((resolve) => {
        finish = resolve;
      });
      const kept = cache.keepWhenDrawn(contentKey(shop()), working);
      expect(cache.has(contentKey(shop()))).toBe(true);

      const view = cache.svgSoon(shop(), { title: 'Shop' });
      finish(drawUntitled(shop()));
      await kept;

      expect(await view).toBe(renderDiagramSvg(shop(), { title: 'Shop' }));
      expect(counted.calls).toBe(0);
      expect(cache.counts).toMatchObject({ joined: 1, drawn: 0 });
      expect(cache.svg(shop(), { title: 'Shop' })).toBe(await view);
      expect(counted.calls).toBe(0);
    });

    it('waits while the drawer reads the same diagram, then for the drawing it starts', async () => {
      const { counted, draw } = countedRenderer();
      const cache = new DrawingCache(1024 * 1024, draw);
      let fetched: () => void = () => {};
      let finish: (drawing: UntitledDrawing) => void = () => {};
      const working = new Promise<UntitledDrawing>((resolve) => {
        finish = resolve;
      });
      const reading = new Promise<void>((resolve) => {
        fetched = resolve;
      }).then(() => {
        // What the drawer does once the version is fetched: its drawing goes in flight.
        void cache.keepWhenDrawn(contentKey(shop()), working);
      });
      void cache.whileReading('diagram-1', reading);

      const view = cache.svgSoon(shop(), { title: 'Shop', diagramUuid: 'diagram-1' });
      fetched();
      await reading;
      finish(drawUntitled(shop()));

      expect(await view).toBe(renderDiagramSvg(shop(), { title: 'Shop' }));
      expect(counted.calls).toBe(0);
      expect(cache.counts).toMatchObject({ drawn: 0, joined: 1 });
    });

    it('draws for the page when the worker’s drawing failed', async () => {
      const { counted, draw } = countedRenderer();
      const cache = new DrawingCache(1024 * 1024, draw);
      const kept = cache.keepWhenDrawn(contentKey(shop()), Promise.reject(new Error('thread ended')));
      const view = await cache.svgSoon(shop(), { title: 'Shop' });
      await kept;
      expect(view).toBe(renderDiagramSvg(shop(), { title: 'Shop' }));
      expect(counted.calls).toBe(1);
    });
  });
});
