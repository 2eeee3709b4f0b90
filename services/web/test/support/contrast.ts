/// <reference lib="dom" />
// WCAG contrast measured two ways: from the computed colours of the drawing's text and what it sits on,
// and from the pixels of a screenshot (decoded by Chromium itself in a blank page, so no image library).
import type { Browser, Page } from 'playwright-core';

export type Rgb = [number, number, number];

/** "rgb(1, 2, 3)" / "rgba(1, 2, 3, 1)" as computed by the browser. */
export function parseRgb(css: string): Rgb {
  const match = /rgba?\((\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?)/.exec(css);
  if (!match) throw new Error(`not a computed rgb colour: ${css}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export interface TextOnFill {
  what: string;
  text: string;
  fill: string;
  background: string;
}

/**
 * Every table name (on its header), column name, type, null marker and key badge (on the row: its mark's
 * tint when marked, else the table's box) of the first drawing on the page, as computed colours.
 */
export async function drawingTextColours(page: Page, scope = 'svg.dss-diagram'): Promise<TextOnFill[]> {
  return page.evaluate((selector) => {
    const fill = (element: Element | null) => (element ? getComputedStyle(element).fill : 'none');
    const svg = document.querySelector(selector);
    if (!svg) throw new Error(`no ${selector} on the page`);
    const out: { what: string; text: string; fill: string; background: string }[] = [];
    for (const table of Array.from(svg.querySelectorAll('g.dss-table'))) {
      const name = table.getAttribute('data-table') ?? '';
      const box = fill(table.querySelector(':scope > rect.dss-box'));
      out.push({
        what: `${name} name`,
        text: fill(table.querySelector(':scope > text.dss-table-name')),
        fill: fill(table.querySelector(':scope > path.dss-header')),
        background: 'header',
      });
      for (const row of Array.from(table.querySelectorAll(':scope > g.dss-column'))) {
        const mark = row.querySelector(':scope > rect.dss-row-mark');
        const under = mark ? fill(mark) : box;
        const column = `${name}.${row.getAttribute('data-column')}`;
        for (const part of Array.from(
          row.querySelectorAll(
            'text.dss-column-name, text.dss-column-type, tspan.dss-nullable, text.dss-badge',
          ),
        ))
          out.push({
            what: `${column} ${part.getAttribute('class')}`,
            text: fill(part),
            fill: under,
            background: mark ? 'row mark' : 'box',
          });
      }
    }
    return out;
  }, scope);
}

/** Contrast of each text against its fill, lowest first. */
export function measured(texts: TextOnFill[]): { what: string; ratio: number }[] {
  return texts
    .map((entry) => ({
      what: entry.what,
      ratio: Math.round(contrast(parseRgb(entry.text), parseRgb(entry.fill)) * 100) / 100,
    }))
    .sort((a, b) => a.ratio - b.ratio);
}

/**
 * The contrast a screenshot of `png` shows inside each box (CSS pixels of the shot): the box's most common
 * colour is its background, the pixel farthest from it in luminance is the text's core.
 */
export async function screenshotContrasts(
  browser: Browser,
  png: Buffer,
  scale: number,
  boxes: { what: string; x: number; y: number; width: number; height: number }[],
): Promise<{ what: string; ratio: number; background: Rgb }[]> {
  const page = await browser.newPage();
  try {
    const samples = await page.evaluate(
      async ({ data, scale, boxes }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        return boxes.map((box) => {
          const pixels = context.getImageData(
            Math.round(box.x * scale),
            Math.round(box.y * scale),
            Math.max(1, Math.round(box.width * scale)),
            Math.max(1, Math.round(box.height * scale)),
          ).data;
          // Each distinct colour once, with its count: a box holds thousands of pixels but few colours, and
          // only those cross from the page to the test.
          const counts = new Map<number, number>();
          for (let at = 0; at < pixels.length; at += 4) {
            const packed = (pixels[at]! << 16) | (pixels[at + 1]! << 8) | pixels[at + 2]!;
            counts.set(packed, (counts.get(packed) ?? 0) + 1);
          }
          return { what: box.what, colours: [...counts.entries()] };
        });
      },
      { data: png.toString('base64'), scale, boxes },
    );
    const rgb = (packed: number): Rgb => [(packed >> 16) & 255, (packed >> 8) & 255, packed & 255];
    return samples.map(({ what, colours }) => {
      const background = rgb(colours.reduce((most, entry) => (entry[1] > most[1] ? entry : most))[0]);
      const ratio = Math.max(...colours.map(([packed]) => contrast(rgb(packed), background)));
      return { what, ratio: Math.round(ratio * 100) / 100, background };
    });
  } finally {
    await page.close();
  }
}
