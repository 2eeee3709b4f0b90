import { dataTypeCatalog, parseDataType, resolveDataType } from '../src/catalog';
import { DRIVERS } from '../src/model';

describe('resolveDataType', () => {
  describe('written parameters', () => {
    it.each([
      ['mysql', 'varchar(255)', { name: 'varchar', params: { length: 255 } }],
      ['mysql', 'decimal(10,2)', { name: 'decimal', params: { precision: 10, scale: 2 } }],
      ['mysql', 'DECIMAL( 10 , 2 )', { name: 'decimal', params: { precision: 10, scale: 2 } }],
      ['mysql', "enum('a','b')", { name: 'enum', params: { values: ['a', 'b'] } }],
      ['mysql', "set('it''s','x\\'y')", { name: 'set', params: { values: ["it's", "x'y"] } }],
      ['mysql', 'int', { name: 'int', params: null }],
      ['sqlsrv', 'nvarchar(max)', { name: 'nvarchar', params: { length: 'max' } }],
      ['sqlsrv', 'varbinary(MAX)', { name: 'varbinary', params: { length: 'max' } }],
      ['pgsql', 'text[]', { name: 'text', params: { array: true } }],
      ['pgsql', 'integer[][]', { name: 'integer', params: { array: true } }],
      ['pgsql', 'integer ARRAY[4]', { name: 'integer', params: { array: true } }],
      ['pgsql', 'varchar(20)[]', { name: 'character varying', params: { length: 20, array: true } }],
      [
        'pgsql',
        'timestamp(3) with time zone',
        { name: 'timestamp with time zone', params: { precision: 3 } },
      ],
      ['pgsql', 'time(6) without time zone', { name: 'time', params: { precision: 6 } }],
      [
        'pgsql',
        'interval day to second(3)',
        { name: 'interval', params: { fields: 'day to second', precision: 3 } },
      ],
      ['pgsql', 'interval(2)', { name: 'interval', params: { precision: 2 } }],
      ['pgsql', 'numeric(5,-2)', { name: 'numeric', params: { precision: 5, scale: -2 } }],
    ] as const)('%s %s', (driver, written, expected) => {
      expect(resolveDataType(driver, written)).toEqual(expected);
    });
  });

  describe('what real dumps write', () => {
    it.each([
      ['mysql', 'int(11)', { name: 'int', params: { length: 11 } }],
      ['mysql', 'bigint(20) unsigned', { name: 'bigint', params: { length: 20 } }],
      ['mysql', 'tinyint(1)', { name: 'tinyint', params: { length: 1 } }],
      ['mysql', '`int`', { name: 'int', params: null }],
      [
        'mysql',
        'varchar(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci',
        { name: 'varchar', params: { length: 191 } },
      ],
      ['pgsql', 'character varying(255)', { name: 'character varying', params: { length: 255 } }],
      ['pgsql', 'double precision', { name: 'double precision', params: null }],
      ['pgsql', 'timestamp without time zone', { name: 'timestamp', params: null }],
      ['pgsql', '"int"', { name: 'integer', params: null }],
      ['pgsql', 'pg_catalog.int4', { name: 'integer', params: null }],
      ['pgsql', '"char"', { name: '"char"', params: null }],
      ['pgsql', 'char(3)', { name: 'character', params: { length: 3 } }],
      ['sqlsrv', '[nvarchar](50)', { name: 'nvarchar', params: { length: 50 } }],
      ['sqlsrv', '[sys].[int]', { name: 'int', params: null }],
      ['sqlsrv', 'datetime2(7)', { name: 'datetime2', params: { precision: 7 } }],
    ] as const)('%s %s', (driver, written, expected) => {
      expect(resolveDataType(driver, written)).toEqual(expected);
    });

    it('reports MySQL column attributes written after the type, for the caller to keep', () => {
      const resolution = parseDataType('mysql', 'bigint(20) unsigned zerofill');
      expect(resolution).toMatchObject({ ok: true, modifiers: { unsigned: true, zerofill: true } });
      expect(parseDataType('mysql', 'int signed')).toMatchObject({
        ok: true,
        modifiers: { unsigned: false },
      });
      expect(parseDataType('mysql', 'varchar(5) charset latin1 collate latin1_bin')).toMatchObject({
        ok: true,
        modifiers: { charset: 'latin1', collation: 'latin1_bin' },
      });
    });
  });

  describe('float(p)', () => {
    it('picks single or double precision from p, as each driver stores it', () => {
      expect(resolveDataType('mysql', 'float(24)')).toEqual({ name: 'float', params: null });
      expect(resolveDataType('mysql', 'float(25)')).toEqual({ name: 'double', params: null });
      expect(resolveDataType('pgsql', 'float(10)')).toEqual({ name: 'real', params: null });
      expect(resolveDataType('pgsql', 'float(53)')).toEqual({ name: 'double precision', params: null });
      expect(resolveDataType('sqlsrv', 'float(24)')).toEqual({ name: 'real', params: null });
      expect(resolveDataType('sqlsrv', 'float(53)')).toEqual({ name: 'float', params: null });
    });

    it('keeps MySQL FLOAT(M,D) and refuses p above 53', () => {
      expect(resolveDataType('mysql', 'float(7,4)')).toEqual({
        name: 'float',
        params: { precision: 7, scale: 4 },
      });
      expect(parseDataType('pgsql', 'float(54)')).toMatchObject({ ok: false, reason: 'param_out_of_range' });
    });
  });

  describe('extras', () => {
    it('folds length and enum_values into the parameters', () => {
      expect(resolveDataType('mysql', 'varchar', { length: 40 })).toEqual({
        name: 'varchar',
        params: { length: 40 },
      });
      expect(resolveDataType('pgsql', 'enum', { enum_values: ['x'] })).toEqual({
        name: 'enum',
        params: { values: ['x'] },
      });
    });

    it('accepts a length equal to the written one and refuses a different one', () => {
      expect(resolveDataType('mysql', 'varchar(40)', { length: 40 })).toEqual({
        name: 'varchar',
        params: { length: 40 },
      });
      expect(parseDataType('mysql', 'varchar(40)', { length: 41 })).toMatchObject({
        ok: false,
        reason: 'conflicting_param',
        source: 'length',
      });
    });

    it('refuses enum_values on a type that takes no values', () => {
      expect(parseDataType('mysql', 'int', { enum_values: ['a'] })).toMatchObject({
        ok: false,
        reason: 'unexpected_param',
        source: 'enum_values',
      });
      expect(parseDataType('sqlsrv', 'enum', { enum_values: ['a'] })).toMatchObject({
        ok: false,
        reason: 'unknown_type',
      });
    });

    it('resolves each list of enum_values on its own, however often a type is repeated with other lists', () => {
      for (let round = 0; round < 3; round++) {
        expect(resolveDataType('mysql', 'enum', { enum_values: ['a', 'b'] })).toEqual({
          name: 'enum',
          params: { values: ['a', 'b'] },
        });
        expect(resolveDataType('mysql', 'enum', { enum_values: ['a\u0000b'] })).toEqual({
          name: 'enum',
          params: { values: ['a\u0000b'] },
        });
        expect(parseDataType('mysql', 'enum', { enum_values: ['a', 'a'] })).toMatchObject({
          ok: false,
          reason: 'invalid_param',
          source: 'enum_values',
        });
        expect(resolveDataType('mysql', 'set', { enum_values: ['a', 'b'] })).toEqual({
          name: 'set',
          params: { values: ['a', 'b'] },
        });
      }
    });

    it('gives each caller its own copy of the values, so changing one result changes no later one', () => {
      const first = resolveDataType('mysql', 'enum', { enum_values: ['x', 'y'] })!;
      first.params!.values!.push('z');
      expect(resolveDataType('mysql', 'enum', { enum_values: ['x', 'y'] })!.params).toEqual({
        values: ['x', 'y'],
      });
    });

    it('refuses a length on a type that takes none', () => {
      expect(parseDataType('pgsql', 'integer', { length: 4 })).toMatchObject({ ok: false, source: 'length' });
    });
  });

  describe('bounds and failures', () => {
    it.each([
      ['mysql', 'varchar(65536)', 'param_out_of_range'],
      ['mysql', 'decimal(66,2)', 'param_out_of_range'],
      ['mysql', 'decimal(10,11)', 'param_out_of_range'],
      ['mysql', 'bit(65)', 'param_out_of_range'],
      ['mysql', 'datetime(7)', 'param_out_of_range'],
      ['sqlsrv', 'datetime2(8)', 'param_out_of_range'],
      ['sqlsrv', 'varchar(8001)', 'param_out_of_range'],
      ['sqlsrv', 'nvarchar(4001)', 'param_out_of_range'],
      ['sqlsrv', 'decimal(39,0)', 'param_out_of_range'],
      ['pgsql', 'timestamp(7)', 'param_out_of_range'],
      ['pgsql', 'varchar(0)', 'param_out_of_range'],
      ['mysql', 'varchar', 'missing_param'],
      ['mysql', 'enum', 'missing_param'],
      ['mysql', 'varbinary', 'missing_param'],
      ['mysql', 'int(1,2)', 'too_many_params'],
      ['mysql', 'json(5)', 'unexpected_param'],
      ['mysql', 'varchar(max)', 'invalid_param'],
      ['mysql', "varchar('x')", 'invalid_param'],
      ['mysql', 'enum(1,2)', 'invalid_param'],
      ['mysql', "enum('a','a')", 'invalid_param'],
      ['mysql', 'text[]', 'array_not_supported'],
      ['pgsql', 'serial[]', 'array_not_supported'],
      ['mysql', 'varchar(10) unsigned', 'unexpected_modifier'],
      ['mysql', 'int unsigned sideways', 'unexpected_modifier'],
      ['mysql', 'varchar(', 'malformed'],
      ['mysql', 'varchar(1)(2)', 'malformed'],
      ['mysql', 'int; drop table users', 'malformed'],
      ['pgsql', 'interval fortnight', 'unknown_type'],
      ['pgsql', 'nvarchar', 'unknown_type'],
      ['mysql', '   ', 'empty'],
    ] as const)('%s %j fails with %s', (driver, written, reason) => {
      const resolution = parseDataType(driver, written);
      expect(resolution).toMatchObject({ ok: false, reason });
      expect(resolveDataType(driver, written)).toBeNull();
    });

    it('names the bounds in the failure message', () => {
      expect(parseDataType('sqlsrv', 'varchar(9000)')).toMatchObject({
        message: 'length of varchar must be between 1 and 8000, got 9000',
      });
    });

    it('cuts a huge written type short in its message', () => {
      const resolution = parseDataType('mysql', 'x'.repeat(100_000));
      expect(resolution.ok).toBe(false);
      if (!resolution.ok) expect(resolution.message.length).toBeLessThan(200);
    });
  });

  it('resolves every catalog name written bare or with its smallest parameters', () => {
    for (const driver of DRIVERS)
      for (const entry of dataTypeCatalog[driver]) {
        const args = entry.params
          .filter((param) => param.type !== 'keyword')
          .map((param) => (param.type === 'string_list' ? "'a'" : String(Math.max(param.min ?? 1, 1))));
        const written = args.length === 0 ? entry.name : `${entry.name}(${args.join(',')})`;
        expect([written, resolveDataType(driver, written)?.name]).toEqual([written, entry.name]);
      }
  });
});
