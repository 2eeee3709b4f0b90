import {
  DATA_TYPE_FAMILIES,
  DATA_TYPE_OPTIONS,
  dataTypeCatalog,
  dataTypeCatalogFor,
  lookupDataType,
} from '../src/catalog';
import { DRIVERS } from '../src/model';

const ENTRY_FIELDS = ['aliases', 'family', 'name', 'options', 'param_values', 'params'];

describe('data-type catalog', () => {
  describe.each(DRIVERS)('%s', (driver) => {
    const entries = dataTypeCatalog[driver];

    it('has exactly the documented fields on every entry, and no internal ids', () => {
      for (const entry of entries) expect(Object.keys(entry).sort()).toEqual(ENTRY_FIELDS);
    });

    it('keeps names and aliases unique case-insensitively across the whole driver', () => {
      const seen = new Map<string, string>();
      for (const entry of entries)
        for (const name of [entry.name, ...entry.aliases]) {
          const key = name.toLowerCase();
          expect([key, seen.get(key)]).toEqual([key, undefined]);
          seen.set(key, entry.name);
        }
    });

    it('takes every family from the documented set and every option from the documented options', () => {
      for (const entry of entries) {
        expect(DATA_TYPE_FAMILIES).toContain(entry.family);
        for (const option of entry.options) expect(DATA_TYPE_OPTIONS).toContain(option);
      }
    });

    it('resolves every name and alias to its entry, whatever the case and spacing', () => {
      for (const entry of entries)
        for (const name of [entry.name, ...entry.aliases]) {
          expect(lookupDataType(driver, name)).toBe(entry);
          expect(lookupDataType(driver, `  ${name.toUpperCase().replace(/ /g, '   ')} `)).toBe(entry);
        }
    });

    it('gives integer parameters bounds, and param_values only for parameters the type takes', () => {
      for (const entry of entries) {
        for (const param of entry.params) if (param.type === 'integer') expect(param.min).not.toBeNull();
        for (const value of entry.param_values)
          expect(entry.params.map((param) => param.name)).toContain(value.param);
      }
    });
  });

  it('serves every driver, or only the one the query names', () => {
    expect(Object.keys(dataTypeCatalogFor())).toEqual(['mysql', 'pgsql', 'sqlsrv']);
    expect(Object.keys(dataTypeCatalogFor('pgsql'))).toEqual(['pgsql']);
    expect(dataTypeCatalogFor('pgsql').pgsql).toBe(dataTypeCatalog.pgsql);
  });

  it('is frozen, so one request cannot change what the next one is served', () => {
    expect(Object.isFrozen(dataTypeCatalog.mysql[0]!.aliases)).toBe(true);
    expect(() => (dataTypeCatalog.mysql as unknown as unknown[]).push({})).toThrow();
  });

  describe('lookupDataType', () => {
    it.each([
      ['pgsql', 'int4', 'integer'],
      ['pgsql', 'INT', 'integer'],
      ['pgsql', 'varchar', 'character varying'],
      ['pgsql', 'bool', 'boolean'],
      ['pgsql', 'timestamptz', 'timestamp with time zone'],
      ['pgsql', 'Timestamp  With Time Zone', 'timestamp with time zone'],
      ['mysql', 'integer', 'int'],
      ['mysql', 'bool', 'boolean'],
      ['mysql', 'numeric', 'decimal'],
      ['sqlsrv', 'national character varying', 'nvarchar'],
      ['sqlsrv', 'timestamp', 'rowversion'],
    ] as const)('resolves %s %j to %j', (driver, name, canonical) => {
      expect(lookupDataType(driver, name)?.name).toBe(canonical);
    });

    it('returns null for a name the driver does not have', () => {
      expect(lookupDataType('mysql', 'jsonb')).toBeNull();
      expect(lookupDataType('sqlsrv', 'enum')).toBeNull();
      expect(lookupDataType('pgsql', 'nvarchar')).toBeNull();
    });

    it('looks up names only, not parameters', () => {
      expect(lookupDataType('mysql', 'varchar(255)')).toBeNull();
    });
  });

  it('lists the types the manuals list, for a sample of each driver', () => {
    const names = (driver: 'mysql' | 'pgsql' | 'sqlsrv') =>
      dataTypeCatalog[driver].map((entry) => entry.name);
    expect(names('mysql')).toEqual(
      expect.arrayContaining(['mediumint', 'year', 'set', 'geometrycollection', 'json', 'longblob', 'bit']),
    );
    expect(names('pgsql')).toEqual(
      expect.arrayContaining([
        'jsonb',
        'tstzrange',
        'macaddr8',
        'pg_lsn',
        'tsvector',
        'interval',
        'regclass',
      ]),
    );
    expect(names('sqlsrv')).toEqual(
      expect.arrayContaining([
        'datetimeoffset',
        'hierarchyid',
        'sql_variant',
        'uniqueidentifier',
        'smallmoney',
      ]),
    );
  });
});
