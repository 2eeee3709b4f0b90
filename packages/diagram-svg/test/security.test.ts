import type { DiagramDocument } from '@dss/schema';
import { emptyHighlight } from '../src/highlight';
import { renderDiagramSvg } from '../src/render';
import { allElements, parseSvg, withClass } from './svg-tree';

const SCRIPT = '<script>alert(1)</script>';
const IMAGE = '<img src=x onerror=alert(1)>';
const LINK = 'javascript:alert(1)';
const QUOTES = `"double" & 'single' &amp; &lt;`;
const HOSTILE = [SCRIPT, IMAGE, LINK, QUOTES];

/** A document with the hostile text `text` in every field that holds text, including colours. */
function hostileDocument(text: string): DiagramDocument {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const column = (n: number, name: string) => ({
    uuid: id(n),
    name,
    driver_data_type_name: `varchar${text}`,
    driver_data_type_params: { values: [text, `${text}'`], fields: text, array: true },
    default: text,
    is_nullable: true,
    is_primary_key: false,
    is_unique_key: false,
    is_index: false,
    is_auto_increment: false,
    is_unsigned: false,
    comment: text,
  });
  return {
    driver: 'pgsql',
    schema_version: 1,
    tables: [
      {
        uuid: id(1),
        name: `users${text}`,
        comment: text,
        color: text,
        parent_uuid: id(9),
        left: 40,
        top: 40,
        width: 320,
        height: 200,
        columns: [column(2, `id${text}`), column(3, `ref${text}`)],
        indexes: [{ uuid: id(4), name: text, type: 'index', columns: [`id${text}`] }],
      },
    ],
    relationships: [
      {
        uuid: id(5),
        name: text,
        type: 'many-to-one',
        source_table: `users${text}`,
        source_column: `ref${text}`,
        target_table: `users${text}`,
        target_column: `id${text}`,
        on_delete: text,
        on_update: text,
      },
    ],
    groups: [
      { uuid: id(9), name: text, color: text, parent_uuid: null, left: 0, top: 0, width: 600, height: 400 },
    ],
    sticky_notes: [
      {
        uuid: id(6),
        content: text,
        color: text,
        parent_uuid: null,
        left: 700,
        top: 0,
        width: 240,
        height: 160,
      },
    ],
  };
}

function everyMarked(document: DiagramDocument) {
  const highlight = emptyHighlight();
  highlight.tables.set(document.tables[0]!.uuid, 'changed');
  highlight.columns.set(document.tables[0]!.columns[0]!.uuid, 'removed');
  highlight.indexes.set(document.tables[0]!.indexes[0]!.uuid, 'added');
  highlight.relationships.set(document.relationships[0]!.uuid, 'removed');
  return highlight;
}

describe('renderDiagramSvg with hostile text', () => {
  describe.each(HOSTILE)('in every field: %s', (text) => {
    const document = hostileDocument(text);
    const svg = renderDiagramSvg(document, { title: text, highlight: everyMarked(document) });

    it('is well-formed XML', () => {
      expect(() => parseSvg(svg)).not.toThrow();
    });

    it('creates no element or attribute from the text', () => {
      const elements = allElements(parseSvg(svg));
      const names = new Set(elements.map((node) => node.name));
      for (const forbidden of ['script', 'img', 'a', 'foreignObject', 'style', 'iframe', 'image', 'use'])
        expect(names.has(forbidden)).toBe(false);
      for (const node of elements)
        for (const [name, value] of Object.entries(node.attributes)) {
          expect(name).not.toMatch(/^on|^style$|href$|^src$/i);
          // The markup contract names tables and columns in data attributes: escaped, inert data, never markup.
          const named = [
            'data-table',
            'data-source-table',
            'data-target-table',
            'data-group',
            'data-group-member',
            'data-column',
          ];
          if (![...named, 'data-source-column', 'data-target-column'].includes(name))
            expect(value).not.toContain(text);
        }
      expect(svg).not.toContain('<script');
      expect(svg).not.toContain('<img');
      // Outside quoted attribute values (where text is escaped data), no tag gains an event handler.
      expect(svg.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\sonerror=/);
    });

    it('shows the text itself, escaped, wherever it belongs', () => {
      const root = parseSvg(svg);
      expect(withClass(root, 'dss-table-name')[0]!.text).toContain('users');
      expect(
        allElements(root)
          .filter((node) => node.name === 'title')
          .map((node) => node.text),
      ).toEqual(
        expect.arrayContaining([
          text,
          `users${text}\n${text}`,
          expect.stringContaining(`default ${text}`),
          expect.stringContaining(`on delete ${text}, on update ${text}`),
        ]),
      );
      const escaped = text
        .replaceAll('&', '&amp;')
        .replaceAll('<', '&lt;')
        .replaceAll('>', '&gt;')
        .replaceAll('"', '&quot;')
        .replaceAll("'", '&#39;');
      expect(svg).toContain(escaped);
    });

    it('ignores the colour and uses the defaults', () => {
      const fills = allElements(parseSvg(svg)).flatMap((node) =>
        ['fill', 'stroke'].map((name) => node.attributes[name]).filter((value) => value !== undefined),
      );
      expect(fills.length).toBeGreaterThan(10);
      for (const fill of fills) expect(fill).toMatch(/^(#[0-9a-f]{3}|#[0-9a-f]{6}|none)$/);
    });
  });

  it('replaces characters XML cannot carry, so the SVG stays well-formed', () => {
    const document = hostileDocument('a\u0000b\u0008c\u001bd\uFFFEe\uD800f');
    const svg = renderDiagramSvg(document);
    expect(() => parseSvg(svg)).not.toThrow();
    expect(withClass(parseSvg(svg), 'dss-note-text')[0]!.text).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf');
  });
});

describe('renderDiagramSvg colours', () => {
  const colourOf = (color: string) => {
    const document = hostileDocument('x');
    document.tables[0]!.color = color;
    document.groups[0]!.color = color;
    document.sticky_notes[0]!.color = color;
    const root = parseSvg(renderDiagramSvg(document));
    return {
      header: withClass(root, 'dss-header')[0]!.attributes['fill'],
      frame: withClass(root, 'dss-frame')[0]!.attributes['stroke'],
      note: withClass(root, 'dss-card')[0]!.attributes['fill'],
    };
  };

  it.each(['#0f766e', '#ABC', '#abc'])('uses the strict hex colour %s', (color) => {
    const lower = color.toLowerCase();
    expect(colourOf(color)).toEqual({ header: lower, frame: lower, note: lower });
  });

  it.each([
    'red',
    '#12345',
    '#1234567',
    '#ff000g',
    ' #ffffff',
    '#fff;x',
    'url(javascript:alert(1))',
    'rgb(0,0,0)',
    '"/><script>alert(1)</script>',
    '',
  ])('ignores %j and uses the default', (color) => {
    expect(colourOf(color)).toEqual({ header: '#e2e8f0', frame: '#94a3b8', note: '#fef9c3' });
  });

  it('writes dark text on light colours and white text on dark ones', () => {
    const nameFill = (color: string) => {
      const document = hostileDocument('x');
      document.tables[0]!.color = color;
      return withClass(parseSvg(renderDiagramSvg(document)), 'dss-table-name')[0]!.attributes['fill'];
    };
    expect(nameFill('#fde68a')).toBe('#0f172a');
    expect(nameFill('#1e3a8a')).toBe('#ffffff');
  });
});
