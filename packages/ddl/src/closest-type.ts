// The closest data-type catalog entry for a type the catalog does not have. The spec's column carries
// `driver_data_type_name`, "to resolve against the data-type catalog of the diagram's driver", and the
// catalog is fixed; so an extension or user-defined type (PostGIS `geometry`, `citext`, `ltree`, pgvector
// `vector`) cannot be stored by its own name. The importer keeps the nearest catalog type and names the
// original in a `type_substituted` warning.
import { type Driver, parseDataType, type ResolvedDataType } from '@dss/schema';

/** Known extension types → the catalog type written in their place (PostgreSQL). */
const PGSQL: [RegExp, string][] = [
  // Case-insensitive, label-tree and ISBN-like text types are text with other comparison rules.
  [
    /^(?:citext|ltree|lquery|ltxtquery|isbn13|isbn|ismn13|ismn|issn13|issn|ean13|upc|semver|chkpass)$/,
    'text',
  ],
  // hstore holds key/value pairs of text: a JSON object is the nearest.
  [/^hstore$/, 'jsonb'],
  // PostGIS: a point, polygon or line string subtype has a built-in geometric type; other geometries are
  // stored as (E)WKB, so bytea.
  [/^(?:geometry|geography)\s*\(\s*point\b/, 'point'],
  [/^(?:geometry|geography)\s*\(\s*polygon\b/, 'polygon'],
  [/^(?:geometry|geography)\s*\(\s*linestring\b/, 'path'],
  [/^(?:geometry|geography|raster|box2d|box3d|geometry_dump)\b/, 'bytea'],
  // pgvector: arrays of single-precision floats.
  [/^(?:vector|halfvec)\b/, 'real[]'],
  [/^cube\b/, 'double precision[]'],
];

const MYSQL: [RegExp, string][] = [
  // MariaDB's own types.
  [/^uuid\b/, 'char(36)'],
  [/^inet6\b/, 'varchar(39)'],
  [/^inet4\b/, 'varchar(15)'],
  [/^xmltype\b/, 'longtext'],
];

const FALLBACK: Record<Driver, string> = { mysql: 'text', pgsql: 'text', sqlsrv: 'nvarchar(max)' };

function strip(written: string): string {
  return written
    .trim()
    .replace(/^(?:"?[\w$]+"?\s*\.\s*)+/, '')
    .replace(/"/g, '')
    .toLowerCase();
}

/** The catalog type to use for `written`, which parseDataType did not resolve. Never fails. */
export function closestType(driver: Driver, written: string): ResolvedDataType {
  let base = strip(written);
  let array = '';
  if (driver === 'pgsql') {
    const suffix = /(\s*\[\s*\d*\s*\])+$|\s+array$/i.exec(base);
    if (suffix) {
      base = base.slice(0, suffix.index).trim();
      array = '[]';
    }
  }
  const rules = driver === 'pgsql' ? PGSQL : driver === 'mysql' ? MYSQL : [];
  const substitute = rules.find(([pattern]) => pattern.test(base))?.[1] ?? FALLBACK[driver];
  const withArray = array && !substitute.endsWith('[]') ? `${substitute}${array}` : substitute;
  const resolved = parseDataType(driver, withArray);
  if (resolved.ok) return resolved.type;
  const fallback = parseDataType(driver, FALLBACK[driver]);
  return fallback.ok ? fallback.type : { name: 'text', params: null };
}

/** How a resolved type reads in a message: `real[]`, `point`, `nvarchar(max)`. */
export function typeLabel(type: ResolvedDataType): string {
  const params = type.params as Record<string, unknown> | null;
  const length = params?.['length'];
  const array = params?.['array'] === true ? '[]' : '';
  return `${type.name}${length !== undefined ? `(${String(length)})` : ''}${array}`;
}
