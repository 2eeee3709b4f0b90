// PostgreSQL 17 built-in data types: the manual's table "Data Types" (names and aliases as listed there),
// plus the range, multirange, JSON path and object-identifier types of the same chapter. Pseudo-types
// (`any`, `record`, `void`…) are left out because a column cannot have them. `enum` stands for a type
// created with CREATE TYPE … AS ENUM, so PostgreSQL columns can carry `enum_values` too.
import { entry, integerParam, keywordParam, paramValues, valuesParam } from './entry-builders';
import type { DataTypeEntry, DataTypeOption } from './types';

const array: DataTypeOption[] = ['array'];
const identityInteger: DataTypeOption[] = ['identity', 'array'];
const serial: DataTypeOption[] = ['auto_increment'];
const fractionalSeconds = integerParam('precision', 0, 6);
const LONGEST_CHARACTER = 10_485_760;
const LONGEST_BIT = 83_886_080;

export const INTERVAL_FIELDS = [
  'year',
  'month',
  'day',
  'hour',
  'minute',
  'second',
  'year to month',
  'day to hour',
  'day to minute',
  'day to second',
  'hour to minute',
  'hour to second',
  'minute to second',
] as const;

const objectIdentifierTypes = [
  'oid',
  'regclass',
  'regcollation',
  'regconfig',
  'regdictionary',
  'regnamespace',
  'regoper',
  'regoperator',
  'regproc',
  'regprocedure',
  'regrole',
  'regtype',
  'xid',
  'xid8',
  'cid',
  'tid',
];

const rangeTypes = [
  'int4range',
  'int8range',
  'numrange',
  'tsrange',
  'tstzrange',
  'daterange',
  'int4multirange',
  'int8multirange',
  'nummultirange',
  'tsmultirange',
  'tstzmultirange',
  'datemultirange',
];

const geometricTypes = ['point', 'line', 'lseg', 'box', 'path', 'polygon', 'circle'];

export const pgsqlDataTypes: DataTypeEntry[] = [
  entry('smallint', 'integer', { aliases: ['int2'], options: identityInteger }),
  entry('integer', 'integer', { aliases: ['int', 'int4'], options: identityInteger }),
  entry('bigint', 'integer', { aliases: ['int8'], options: identityInteger }),
  entry('smallserial', 'integer', { aliases: ['serial2'], options: serial }),
  entry('serial', 'integer', { aliases: ['serial4'], options: serial }),
  entry('bigserial', 'integer', { aliases: ['serial8'], options: serial }),
  entry('numeric', 'decimal', {
    aliases: ['decimal'],
    params: [integerParam('precision', 1, 1000), integerParam('scale', -1000, 1000)],
    options: array,
  }),
  // float(p) is rewritten to real or double precision by the resolver.
  entry('real', 'float', { aliases: ['float4'], options: array }),
  entry('double precision', 'float', { aliases: ['float8', 'float'], options: array }),
  entry('money', 'decimal', { options: array }),
  entry('character varying', 'string', {
    aliases: ['varchar', 'char varying'],
    params: [integerParam('length', 1, LONGEST_CHARACTER)],
    options: array,
  }),
  entry('character', 'string', {
    aliases: ['char', 'bpchar'],
    params: [integerParam('length', 1, LONGEST_CHARACTER)],
    options: array,
  }),
  entry('text', 'string', { options: array }),
  entry('"char"', 'string', { options: array }),
  entry('name', 'string', { options: array }),
  entry('bytea', 'binary', { options: array }),
  entry('timestamp', 'datetime', {
    aliases: ['timestamp without time zone'],
    params: [fractionalSeconds],
    options: array,
  }),
  entry('timestamp with time zone', 'datetime', {
    aliases: ['timestamptz'],
    params: [fractionalSeconds],
    options: array,
  }),
  entry('date', 'date', { options: array }),
  entry('time', 'time', { aliases: ['time without time zone'], params: [fractionalSeconds], options: array }),
  entry('time with time zone', 'time', { aliases: ['timetz'], params: [fractionalSeconds], options: array }),
  entry('interval', 'interval', {
    params: [keywordParam('fields'), fractionalSeconds],
    param_values: paramValues('fields', INTERVAL_FIELDS),
    options: array,
  }),
  entry('boolean', 'boolean', { aliases: ['bool'], options: array }),
  entry('enum', 'enum', { params: [valuesParam(null)], options: array }),
  ...geometricTypes.map((name) => entry(name, 'spatial', { options: array })),
  entry('cidr', 'network', { options: array }),
  entry('inet', 'network', { options: array }),
  entry('macaddr', 'network', { options: array }),
  entry('macaddr8', 'network', { options: array }),
  entry('bit', 'bit', { params: [integerParam('length', 1, LONGEST_BIT)], options: array }),
  entry('bit varying', 'bit', {
    aliases: ['varbit'],
    params: [integerParam('length', 1, LONGEST_BIT)],
    options: array,
  }),
  entry('tsvector', 'text_search', { options: array }),
  entry('tsquery', 'text_search', { options: array }),
  entry('uuid', 'uuid', { options: array }),
  entry('xml', 'xml', { options: array }),
  entry('json', 'json', { options: array }),
  entry('jsonb', 'json', { options: array }),
  entry('jsonpath', 'json', { options: array }),
  ...rangeTypes.map((name) => entry(name, 'range', { options: array })),
  entry('pg_lsn', 'other', { options: array }),
  entry('pg_snapshot', 'other', { options: array }),
  entry('txid_snapshot', 'other', { options: array }),
  ...objectIdentifierTypes.map((name) => entry(name, 'other', { options: array })),
];
