// The catalogs of all drivers, as GET /data-types serves them, and name lookup against them.
import type { Driver } from '../model';
import { mysqlDataTypes } from './mysql';
import { pgsqlDataTypes } from './pgsql';
import { sqlsrvDataTypes } from './sqlsrv';
import type { DataTypeEntry } from './types';

export type DataTypeCatalog = { [driver in Driver]: readonly DataTypeEntry[] };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Every driver's catalog. Frozen: it is shared by every request and served as it is. */
export const dataTypeCatalog: Readonly<DataTypeCatalog> = deepFreeze({
  mysql: mysqlDataTypes,
  pgsql: pgsqlDataTypes,
  sqlsrv: sqlsrvDataTypes,
});

/** `data` of GET /data-types: every driver, or only `driver` when the query names one. */
export function dataTypeCatalogFor(driver?: Driver): Partial<DataTypeCatalog> {
  if (driver === undefined) return dataTypeCatalog;
  return { [driver]: dataTypeCatalog[driver] };
}

/** The key names are compared by: lower case, runs of whitespace collapsed to one space. */
export function dataTypeKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

function indexByName(entries: readonly DataTypeEntry[]): ReadonlyMap<string, DataTypeEntry> {
  const byName = new Map<string, DataTypeEntry>();
  for (const entry of entries)
    for (const name of [entry.name, ...entry.aliases]) byName.set(dataTypeKey(name), entry);
  return byName;
}

const entriesByName: { [driver in Driver]: ReadonlyMap<string, DataTypeEntry> } = {
  mysql: indexByName(mysqlDataTypes),
  pgsql: indexByName(pgsqlDataTypes),
  sqlsrv: indexByName(sqlsrvDataTypes),
};

/**
 * The catalog entry a bare type name (no parameters) stands for: case-insensitive, aliases resolved,
 * whitespace collapsed (`Character   Varying` finds `character varying`). Null when the driver has no
 * such type.
 */
export function lookupDataType(driver: Driver, name: string): DataTypeEntry | null {
  const byName = entriesByName[driver];
  if (byName === undefined) return null;
  return byName.get(dataTypeKey(name)) ?? null;
}
