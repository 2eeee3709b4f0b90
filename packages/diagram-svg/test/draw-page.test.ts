import { drawFromLocation, driverFrom } from '../src/draw-page';
import { parseSvg, withClass } from './svg-tree';

const patch = {
  strategy: 'merge',
  tables: [
    {
      name: 'users',
      columns: [
        { name: 'id', type: 'int', is_primary_key: true },
        { name: 'email', type: 'varchar(255)' },
      ],
    },
    { name: 'posts', columns: [{ name: 'author_id', type: 'int' }] },
  ],
  relationships: [
    {
      source_table: 'posts',
      source_column: 'author_id',
      target_table: 'users',
      target_column: 'id',
      type: 'many-to-one',
    },
  ],
};

const hashOf = (value: unknown) =>
  `#patch=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`;

describe('drawFromLocation', () => {
  describe('a valid patch', () => {
    it('is drawn with no problems, laying out tables without a position', () => {
      const result = drawFromLocation(hashOf(patch), '');
      if (!result.ok) throw new Error(result.message);
      const root = parseSvg(result.svg);
      expect(withClass(root, 'dss-table-name').map((node) => node.text)).toEqual(['users', 'posts']);
      expect(withClass(root, 'dss-relationship')).toHaveLength(1);
      expect(result).toMatchObject({ driver: 'mysql', tableCount: 2, warnings: [] });
      for (const box of withClass(root, 'dss-box'))
        expect(Number.isFinite(Number(box.attributes['x']))).toBe(true);
    });

    it('honours positions and sizes sent in the patch', () => {
      const placed = {
        strategy: 'merge',
        tables: [
          {
            name: 'users',
            left: 500,
            top: 300,
            width: 260,
            height: 120,
            columns: [{ name: 'id', type: 'int' }],
          },
        ],
        sticky_notes: [{ content: 'hi', left: 40, top: 20, width: 150, height: 90 }],
      };
      const result = drawFromLocation(hashOf(placed), '');
      if (!result.ok) throw new Error(result.message);
      const root = parseSvg(result.svg);
      expect(withClass(root, 'dss-box')[0]!.attributes).toMatchObject({
        x: '500',
        y: '300',
        width: '260',
        height: '120',
      });
      expect(withClass(root, 'dss-card')[0]!.attributes).toMatchObject({
        x: '40',
        y: '20',
        width: '150',
        height: '90',
      });
    });

    it('uses the driver of ?driver= for types', () => {
      const arrays = {
        strategy: 'merge',
        tables: [{ name: 't', columns: [{ name: 'tags', type: 'text[]' }] }],
      };
      const pgsql = drawFromLocation(hashOf(arrays), '?driver=pgsql');
      expect(pgsql).toMatchObject({ ok: true, driver: 'pgsql' });
      const mysql = drawFromLocation(hashOf(arrays), '');
      expect(mysql).toMatchObject({ ok: false, reason: 'invalid_patch' });
      expect(mysql.ok === false && mysql.problems.map((problem) => problem.path)).toEqual([
        'tables[0].columns[0].type',
      ]);
    });

    it('lists the normaliser warnings beside the drawing', () => {
      const result = drawFromLocation(hashOf({ ...patch, colour: 'blue' }), '');
      expect(result.ok).toBe(true);
      expect(result.warnings).toEqual([{ path: '', message: expect.stringContaining('colour') }]);
    });

    it('finds patch= after other fragment parameters and takes raw, unencoded JSON as it is', () => {
      expect(drawFromLocation(`#view=1&patch=${encodeURIComponent(JSON.stringify(patch))}`, '').ok).toBe(
        true,
      );
      expect(drawFromLocation(`#patch=${JSON.stringify(patch)}`, '').ok).toBe(true);
    });
  });

  describe('refusals', () => {
    it.each(['', '#', '#patch=', '#view=1', '#patch=   '])('says the patch is missing for %j', (hash) => {
      expect(drawFromLocation(hash, '')).toEqual({
        ok: false,
        reason: 'missing_patch',
        message: 'Nothing to draw: the address has no #patch= with a schema patch',
        problems: [],
        warnings: [],
      });
    });

    it('says so when the patch is not URL-encoded correctly', () => {
      expect(drawFromLocation('#patch=%7B%E0%A4%A', '')).toMatchObject({
        ok: false,
        reason: 'invalid_encoding',
      });
    });

    it('says so when the patch is not JSON', () => {
      const result = drawFromLocation(hashOf('{"strategy": "merge",'), '');
      expect(result).toMatchObject({ ok: false, reason: 'invalid_json' });
      expect(!result.ok && result.message).toMatch(/^The patch is not valid JSON: /);
    });

    it('lists every validation problem with its path', () => {
      const bad = {
        tables: [{ name: 'users', columns: [{ name: 'id', type: 'no_such_type' }] }],
        relationships: [
          {
            source_table: 'users',
            source_column: 'id',
            target_table: 'ghosts',
            target_column: 'id',
            type: 'many-to-one',
          },
        ],
      };
      const result = drawFromLocation(hashOf(bad), '');
      expect(result).toMatchObject({ ok: false, reason: 'invalid_patch' });
      const paths = result.ok ? [] : result.problems.map((problem) => problem.path);
      expect(paths).toEqual(expect.arrayContaining(['strategy', 'tables[0].columns[0].type']));
      expect(paths.some((path) => path.startsWith('relationships[0]'))).toBe(true);
    });

    it('refuses JSON that is not an object', () => {
      const result = drawFromLocation(hashOf([1, 2]), '');
      expect(result).toMatchObject({ ok: false, reason: 'invalid_patch', problems: [{ path: '' }] });
    });

    it('refuses a patch over the 500KB bound', () => {
      const huge = { strategy: 'merge', tables: [{ name: 'x'.repeat(520 * 1024), columns: [] }] };
      expect(drawFromLocation(hashOf(huge), '')).toMatchObject({ ok: false, reason: 'too_large' });
    });

    it('refuses an unknown driver', () => {
      expect(drawFromLocation(hashOf(patch), '?driver=oracle')).toMatchObject({
        ok: false,
        reason: 'invalid_driver',
      });
    });
  });
});

describe('driverFrom', () => {
  it.each([
    ['', 'mysql'],
    ['?driver=', 'mysql'],
    ['?driver=pgsql', 'pgsql'],
    ['?x=1&driver=sqlsrv', 'sqlsrv'],
    ['?driver=PGSQL', null],
  ])('reads %j as %s', (search, driver) => {
    expect(driverFrom(search)).toBe(driver);
  });
});
