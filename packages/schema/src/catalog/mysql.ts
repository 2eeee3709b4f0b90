// MySQL 8.4 built-in data types (reference manual, chapter "Data Types"). Bounds are the manual's:
// display widths up to 255, DECIMAL(65,30), fractional seconds 0–6, CHAR 255, VARCHAR 65,535 bytes.
// `boolean` and `serial` are kept as their own entries (MySQL expands them to TINYINT(1) and
// BIGINT UNSIGNED AUTO_INCREMENT) so a diagram shows what the author wrote.
import { entry, integerParam, valuesParam } from './entry-builders';
import type { DataTypeEntry, DataTypeOption } from './types';

const integerOptions: DataTypeOption[] = ['auto_increment', 'unsigned', 'zerofill'];
const displayWidth = integerParam('length', 1, 255);
const fractionalSeconds = integerParam('precision', 0, 6);
const LONGEST_BLOB = 4_294_967_295;

export const mysqlDataTypes: DataTypeEntry[] = [
  entry('tinyint', 'integer', { aliases: ['int1'], params: [displayWidth], options: integerOptions }),
  entry('smallint', 'integer', { aliases: ['int2'], params: [displayWidth], options: integerOptions }),
  entry('mediumint', 'integer', {
    aliases: ['int3', 'middleint'],
    params: [displayWidth],
    options: integerOptions,
  }),
  entry('int', 'integer', { aliases: ['integer', 'int4'], params: [displayWidth], options: integerOptions }),
  entry('bigint', 'integer', { aliases: ['int8'], params: [displayWidth], options: integerOptions }),
  entry('serial', 'integer', { options: ['auto_increment', 'unsigned'] }),
  entry('decimal', 'decimal', {
    aliases: ['dec', 'numeric', 'fixed'],
    params: [integerParam('precision', 1, 65), integerParam('scale', 0, 30)],
    options: ['unsigned', 'zerofill'],
  }),
  // FLOAT(p) is rewritten to float or double by the resolver; FLOAT(M,D) keeps M and D here.
  entry('float', 'float', {
    aliases: ['float4'],
    params: [integerParam('precision', 1, 255), integerParam('scale', 0, 30)],
    options: integerOptions,
  }),
  entry('double', 'float', {
    aliases: ['double precision', 'real', 'float8'],
    params: [integerParam('precision', 1, 255), integerParam('scale', 0, 30)],
    options: integerOptions,
  }),
  entry('bit', 'bit', { params: [integerParam('length', 1, 64)] }),
  entry('boolean', 'boolean', { aliases: ['bool'] }),
  entry('date', 'date'),
  entry('time', 'time', { params: [fractionalSeconds] }),
  entry('datetime', 'datetime', { params: [fractionalSeconds] }),
  entry('timestamp', 'datetime', { params: [fractionalSeconds] }),
  entry('year', 'date', { params: [integerParam('length', 4, 4)] }),
  entry('char', 'string', {
    aliases: ['character', 'nchar', 'national char', 'national character'],
    params: [integerParam('length', 0, 255)],
  }),
  entry('varchar', 'string', {
    aliases: [
      'character varying',
      'char varying',
      'nvarchar',
      'national varchar',
      'national char varying',
      'national character varying',
      'nchar varchar',
    ],
    params: [integerParam('length', 0, 65_535, true)],
  }),
  entry('binary', 'binary', { aliases: ['char byte'], params: [integerParam('length', 0, 255)] }),
  entry('varbinary', 'binary', { params: [integerParam('length', 0, 65_535, true)] }),
  entry('tinyblob', 'binary'),
  entry('blob', 'binary', { params: [integerParam('length', 0, LONGEST_BLOB)] }),
  entry('mediumblob', 'binary', { aliases: ['long varbinary'] }),
  entry('longblob', 'binary'),
  entry('tinytext', 'string'),
  entry('text', 'string', { params: [integerParam('length', 0, LONGEST_BLOB)] }),
  entry('mediumtext', 'string', { aliases: ['long varchar', 'long'] }),
  entry('longtext', 'string'),
  entry('enum', 'enum', { params: [valuesParam(65_535)] }),
  entry('set', 'enum', { params: [valuesParam(64)] }),
  entry('json', 'json'),
  entry('geometry', 'spatial'),
  entry('point', 'spatial'),
  entry('linestring', 'spatial'),
  entry('polygon', 'spatial'),
  entry('multipoint', 'spatial'),
  entry('multilinestring', 'spatial'),
  entry('multipolygon', 'spatial'),
  entry('geometrycollection', 'spatial', { aliases: ['geomcollection'] }),
];
