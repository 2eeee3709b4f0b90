import { documentFrom, shopPatch, uuidCounter } from './fixtures';
import { renderDiagramSvg } from '../src/render';
import { type DiagramDocument, emptyDocument } from '@dss/schema';
// The schema's benchmark generator, from source like every workspace import under jest.
import { generateDiagram } from '../../schema/src/generated/generate-diagram';
import { allElements, classesOf, parseSvg, titleOf, withClass } from './svg-tree';

function shop() {
  return documentFrom(shopPatch).document;
}

describe('renderDiagramSvg', () => {
  describe('content', () => {
    it('draws every table, column, relationship, group and note', () => {
      const document = shop();
      const root = parseSvg(renderDiagramSvg(document));

      const tableNames = withClass(root, 'dss-table-name').map((node) => node.text);
      expect(tableNames).toEqual(['customers', 'orders', 'invoices']);
      const columnNames = withClass(root, 'dss-column-name').map((node) => node.text);
      expect(columnNames).toEqual(
        document.tables.flatMap((table) => table.columns.map((column) => column.name)),
      );
      expect(withClass(root, 'dss-relationship').map(titleOf)).toEqual([
        'orders.customer_id → customers.id (many-to-one)',
        'customers.referred_by → customers.id (many-to-one)',
        'invoices.order_id → orders.id (one-to-one)',
      ]);
      expect(withClass(root, 'dss-group-name').map((node) => node.text)).toEqual(['Sales']);
      expect(withClass(root, 'dss-note-text').map((node) => node.text)).toEqual(['Totals include tax']);
    });

    it('writes each type with its parameters and marks nullable columns', () => {
      const root = parseSvg(renderDiagramSvg(shop()));
      const types = withClass(root, 'dss-column-type').map((node) => node.text);
      expect(types).toEqual([
        'bigint',
        'character varying(255)',
        'bigint null',
        'bigint',
        'bigint',
        'numeric(10,2)',
        'text[] null',
        'bigint',
        'bigint',
      ]);
    });

    it('writes enum values, interval fields and unsigned as they are declared', () => {
      const mysql = documentFrom(
        {
          strategy: 'merge',
          tables: [
            {
              name: 'items',
              width: 320,
              columns: [
                { name: 'state', type: "enum('draft','it''s live')" },
                { name: 'amount', type: 'int unsigned' },
              ],
            },
          ],
        },
        { driver: 'mysql' },
      ).document;
      const pgsql = documentFrom({
        strategy: 'merge',
        tables: [
          { name: 'spans', width: 300, columns: [{ name: 'length', type: 'interval day to second' }] },
        ],
      }).document;
      const mysqlTypes = withClass(parseSvg(renderDiagramSvg(mysql)), 'dss-column-type').map(
        (node) => node.text,
      );
      const pgsqlTypes = withClass(parseSvg(renderDiagramSvg(pgsql)), 'dss-column-type').map(
        (node) => node.text,
      );
      expect(mysqlTypes).toEqual(["enum('draft','it''s live') null", 'int unsigned null']);
      expect(pgsqlTypes).toEqual(['interval day to second null']);
    });

    it('shows PK, UQ and IX badges in the first slot and FK in the second', () => {
      const root = parseSvg(renderDiagramSvg(shop()));
      const badgesByColumn = withClass(root, 'dss-column').map((row) => ({
        name: withClass(row, 'dss-column-name')[0]!.text,
        badges: withClass(row, 'dss-badge').map((node) => node.text),
      }));
      expect(badgesByColumn).toEqual([
        { name: 'id', badges: ['PK'] },
        { name: 'email', badges: ['UQ'] },
        { name: 'referred_by', badges: ['FK'] },
        { name: 'id', badges: ['PK'] },
        { name: 'customer_id', badges: ['IX', 'FK'] },
        { name: 'total', badges: [] },
        { name: 'tags', badges: [] },
        { name: 'id', badges: ['PK'] },
        { name: 'order_id', badges: ['UQ', 'FK'] },
      ]);
    });

    it('puts a column default and comment into the row tooltip', () => {
      const root = parseSvg(renderDiagramSvg(shop()));
      const total = withClass(root, 'dss-column').find(
        (row) => withClass(row, 'dss-column-name')[0]!.text === 'total',
      )!;
      expect(titleOf(total)).toBe('total numeric(10,2): not null, default 0');
      const tags = withClass(root, 'dss-column').find(
        (row) => withClass(row, 'dss-column-name')[0]!.text === 'tags',
      )!;
      expect(titleOf(tags)).toBe('tags text[]: nullable\nFree labels');
    });

    it('drops the null marker before cutting the type when the table is as wide as it grows', () => {
      const name = `state_${'e'.repeat(60)}`;
      const type = "enum('pending','shipped','delivered')";
      const document = documentFrom(
        { strategy: 'merge', tables: [{ name: 'orders', left: 0, top: 0, columns: [{ name, type }] }] },
        { driver: 'mysql' },
      ).document;
      const root = parseSvg(renderDiagramSvg(document));
      expect(withClass(root, 'dss-box')[0]!.attributes['width']).toBe('720');
      const row = withClass(root, 'dss-column')[0]!;
      expect(withClass(row, 'dss-column-type')[0]!.text).toBe(type);
      expect(titleOf(row)).toBe(`${name} ${type}: nullable`);
    });

    it('widens a table whose stored width would cut a nullable column, and keeps "null" apart from the type', () => {
      const document = documentFrom({
        strategy: 'merge',
        tables: [
          { name: 'users', left: 0, top: 0, width: 120, columns: [{ name: 'email', type: 'varchar(255)' }] },
        ],
      }).document;
      const root = parseSvg(renderDiagramSvg(document));
      const box = withClass(root, 'dss-box')[0]!;
      const type = withClass(root, 'dss-column-type')[0]!;
      const marker = withClass(type, 'dss-nullable')[0]!;
      expect(type.text).toBe('character varying(255) null');
      const right = Number(box.attributes['width']);
      // The marker is anchored at the row's end; the type ends 28px before it (22px marker + 6px gap).
      expect(Number(marker.attributes['x'])).toBe(right - 10);
      expect(Number(type.attributes['x'])).toBe(right - 10 - 28);
      // Estimated, the type's start stays right of the name's end.
      const nameEnd = 34 + 'email'.length * 6.4;
      expect(Number(type.attributes['x']) - 'character varying(255)'.length * 6.7).toBeGreaterThan(nameEnd);
    });

    it('gives a row no tooltip when it shows everything there is to know', () => {
      const root = parseSvg(renderDiagramSvg(shop()));
      const email = withClass(root, 'dss-column').find(
        (row) => withClass(row, 'dss-column-name')[0]!.text === 'email',
      )!;
      expect(email.children.map((child) => child.name)).not.toContain('title');
    });

    it('draws tables at their stored place and size', () => {
      const document = shop();
      const orders = document.tables.find((table) => table.name === 'orders')!;
      const root = parseSvg(renderDiagramSvg(document));
      const box = withClass(root, 'dss-box')[1]!;
      expect(box.attributes).toMatchObject({
        x: '420',
        y: '60',
        width: String(orders.width),
        height: String(orders.height),
      });
    });

    it('draws groups behind tables and notes above them', () => {
      const root = parseSvg(renderDiagramSvg(shop()));
      const layers = root.children.filter((node) => node.name === 'g').map((node) => classesOf(node)[0]);
      expect(layers).toEqual(['dss-groups', 'dss-relationships', 'dss-tables', 'dss-notes']);
    });

    it('wraps note content to the note width and cuts it to its height with an ellipsis', () => {
      const document = documentFrom({
        strategy: 'merge',
        sticky_notes: [
          { content: `first line\n${'word '.repeat(60)}`, left: 0, top: 0, width: 160, height: 80 },
        ],
      }).document;
      const lines = withClass(parseSvg(renderDiagramSvg(document)), 'dss-note-text')[0]!.children.map(
        (tspan) => tspan.text,
      );
      expect(lines[0]).toBe('first line');
      expect(lines.length).toBe(3); // (80 - 2 × 12 padding) / 16px lines
      expect(lines.at(-1)!.endsWith('…')).toBe(true);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
    });

    it('cuts a name too long for its table with an ellipsis and keeps the whole name in the tooltip', () => {
      const long = `customer_${'x'.repeat(120)}`;
      const document = documentFrom({
        strategy: 'merge',
        tables: [{ name: 'a', left: 0, top: 0, width: 200, columns: [{ name: long, type: 'bigint' }] }],
      }).document;
      const row = withClass(parseSvg(renderDiagramSvg(document)), 'dss-column')[0]!;
      const shown = withClass(row, 'dss-column-name')[0]!.text;
      expect(shown.endsWith('…')).toBe(true);
      expect(shown.length).toBeLessThan(long.length);
      expect(titleOf(row)).toBe(`${long} bigint: nullable`);
    });
  });

  describe('relationships', () => {
    const loopPoints = (document: DiagramDocument, title: string) => {
      const root = parseSvg(renderDiagramSvg(document));
      const loop = withClass(root, 'dss-relationship').find((node) => titleOf(node).startsWith(title))!;
      return [...withClass(loop, 'dss-line')[0]!.attributes['d']!.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map(
        ([, x, y]) => [Number(x), Number(y)] as const,
      );
    };

    it('draws a self-reference as a loop out of the right edge of a table with no other lines', () => {
      const { document } = documentFrom({
        strategy: 'merge',
        tables: [
          {
            name: 'categories',
            left: 0,
            top: 0,
            columns: [
              { name: 'id', type: 'int', is_primary_key: true },
              { name: 'parent_id', type: 'int' },
            ],
          },
        ],
        relationships: [
          {
            source_table: 'categories',
            source_column: 'parent_id',
            target_table: 'categories',
            target_column: 'id',
            type: 'many-to-one',
          },
        ],
      });
      const table = document.tables[0]!;
      const points = loopPoints(document, 'categories.parent_id');
      const right = table.left + table.width;
      expect(points[0]).toEqual([right, table.top + 36 + 24 + 12]);
      expect(points.at(-1)).toEqual([right, table.top + 36 + 12]);
      expect(Math.max(...points.map(([x]) => x))).toBeGreaterThan(right);
    });

    it('puts a self-reference on the edge where fewer other lines end', () => {
      const document = shop(); // orders.customer_id ends on the right edge of customers
      const customers = document.tables.find((table) => table.name === 'customers')!;
      const points = loopPoints(document, 'customers.referred_by');
      expect(points[0]).toEqual([customers.left, customers.top + 36 + 24 * 2 + 12]);
      expect(points.at(-1)).toEqual([customers.left, customers.top + 36 + 12]);
      expect(Math.min(...points.map(([x]) => x))).toBeLessThan(customers.left);
    });

    it('connects the rows of the linked columns, leaving each table at the facing edge', () => {
      const document = shop();
      const customers = document.tables.find((table) => table.name === 'customers')!;
      const orders = document.tables.find((table) => table.name === 'orders')!;
      const root = parseSvg(renderDiagramSvg(document));
      const link = withClass(root, 'dss-relationship').find((node) =>
        titleOf(node).startsWith('orders.customer_id'),
      )!;
      const d = withClass(link, 'dss-line')[0]!.attributes['d']!;
      expect(d.startsWith(`M${orders.left} ${orders.top + 36 + 24 + 12}`)).toBe(true);
      expect(d.endsWith(`L${customers.left + customers.width} ${customers.top + 36 + 12}`)).toBe(true);
    });

    it("ends a many-to-one with a crow's foot and a one-to-one with bars only", () => {
      const root = parseSvg(renderDiagramSvg(shop()));
      const ends = withClass(root, 'dss-relationship').map(
        (node) => withClass(node, 'dss-ends')[0]!.attributes['d']!,
      );
      // A crow's foot is two prongs meeting at a heel: four moves in all; a bar is one move.
      const moves = ends.map((d) => d.split('M').length - 1);
      expect(moves[0]).toBe(2 + 2); // crow's foot, then two bars (customer_id is not nullable)
      expect(moves[2]).toBe(1 + 2); // a bar at each end, two at the referenced side
    });

    it('marks the referenced end "zero or one" with a circle when the foreign key is nullable', () => {
      const root = parseSvg(renderDiagramSvg(shop()));
      const circles = withClass(root, 'dss-relationship').map(
        (node) => withClass(node, 'dss-optional').length,
      );
      expect(circles).toEqual([0, 1, 0]);
    });
  });

  describe('the svg element', () => {
    it('is a standalone svg with a viewBox around everything drawn and width and height of 100%', () => {
      const document = shop();
      const root = parseSvg(renderDiagramSvg(document));
      expect(root.name).toBe('svg');
      expect(root.attributes).toMatchObject({
        xmlns: 'http://www.w3.org/2000/svg',
        width: '100%',
        height: '100%',
        class: 'dss-diagram',
      });
      const [x, y, width, height] = root.attributes['viewBox']!.split(' ').map(Number);
      const note = document.sticky_notes[0]!;
      expect(x).toBeLessThan(0);
      expect(y).toBeLessThan(0);
      expect(x! + width!).toBeGreaterThanOrEqual(note.left + note.width);
      expect(x! + width!).toBeLessThanOrEqual(note.left + note.width + 48);
      expect(y! + height!).toBeGreaterThan(420);
    });

    it('has an accessible title, given or counted', () => {
      expect(titleOf(parseSvg(renderDiagramSvg(shop())))).toBe('Diagram with 3 tables');
      expect(titleOf(parseSvg(renderDiagramSvg(shop(), { title: 'Shop & co' })))).toBe('Shop & co');
    });

    it('says so when there is nothing to draw', () => {
      const root = parseSvg(renderDiagramSvg(emptyDocument('mysql')));
      expect(root.attributes['viewBox']).toBe('0 0 480 120');
      expect(withClass(root, 'dss-empty')[0]!.text).toBe('This diagram has no tables yet');
    });

    it('stays well-formed and complete for a generated 100-table diagram', () => {
      const document = generateDiagram({ tables: 100, columnsPerTable: 12 });
      const root = parseSvg(renderDiagramSvg(document));
      expect(withClass(root, 'dss-table')).toHaveLength(100);
      expect(withClass(root, 'dss-column')).toHaveLength(1200);
      expect(withClass(root, 'dss-relationship')).toHaveLength(document.relationships.length);
      expect(withClass(root, 'dss-group')).toHaveLength(document.groups.length);
      expect(withClass(root, 'dss-note')).toHaveLength(document.sticky_notes.length);
    });

    it("gives equal output for equal documents, whatever their uuids but the relationships' and notes' own", () => {
      const first = documentFrom(shopPatch, { newUuid: uuidCounter('00000000-0000-4000-8000-') }).document;
      const second = documentFrom(shopPatch, { newUuid: uuidCounter('11111111-1111-4111-8111-') }).document;
      // data-relationship and data-note carry their record's uuid (the markup contract); nothing else does.
      const withoutIds = (svg: string) => svg.replace(/ data-(relationship|note)="[^"]*"/g, '');
      expect(renderDiagramSvg(first)).toBe(renderDiagramSvg(first));
      expect(withoutIds(renderDiagramSvg(second))).toBe(withoutIds(renderDiagramSvg(first)));
      expect(renderDiagramSvg(first)).toContain(`data-relationship="${first.relationships[0]!.uuid}"`);
    });

    it('uses no style element, style attribute, script, link, foreignObject or event handler', () => {
      const svg = renderDiagramSvg(shop());
      const elements = allElements(parseSvg(svg));
      const names = new Set(elements.map((node) => node.name));
      expect([...names].sort()).toEqual(
        ['circle', 'g', 'line', 'path', 'rect', 'svg', 'text', 'title', 'tspan'].filter((name) =>
          names.has(name),
        ),
      );
      for (const forbidden of ['style', 'script', 'a', 'foreignObject', 'image', 'use'])
        expect(names.has(forbidden)).toBe(false);
      for (const node of elements)
        for (const attribute of Object.keys(node.attributes)) {
          expect(attribute).not.toMatch(/^on|^style$|href$/i);
        }
    });
  });
});
