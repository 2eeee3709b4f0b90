// SQL Server 2022 built-in data types ("Data types (Transact-SQL)"), with the ISO synonyms the manual
// lists as aliases. `cursor` and `table` are left out because a column cannot have them; `sysname`
// (the system-supplied nvarchar(128) type) is kept because real dumps write it.
import { entry, integerParam, paramValues } from './entry-builders';
import type { DataTypeEntry, DataTypeOption } from './types';

const identity: DataTypeOption[] = ['identity'];
const fractionalSeconds = integerParam('precision', 0, 7);
const maxLength = paramValues('length', ['max']);

export const sqlsrvDataTypes: DataTypeEntry[] = [
  entry('bigint', 'integer', { options: identity }),
  entry('int', 'integer', { aliases: ['integer'], options: identity }),
  entry('smallint', 'integer', { options: identity }),
  entry('tinyint', 'integer', { options: identity }),
  entry('bit', 'boolean'),
  entry('decimal', 'decimal', {
    aliases: ['dec'],
    params: [integerParam('precision', 1, 38), integerParam('scale', 0, 38)],
    options: identity,
  }),
  entry('numeric', 'decimal', {
    params: [integerParam('precision', 1, 38), integerParam('scale', 0, 38)],
    options: identity,
  }),
  entry('money', 'decimal'),
  entry('smallmoney', 'decimal'),
  // float(n) is rewritten to real (n ≤ 24) or float (n > 24) by the resolver, as SQL Server stores it.
  entry('float', 'float', { aliases: ['double precision'] }),
  entry('real', 'float'),
  entry('date', 'date'),
  entry('time', 'time', { params: [fractionalSeconds] }),
  entry('datetime2', 'datetime', { params: [fractionalSeconds] }),
  entry('datetimeoffset', 'datetime', { params: [fractionalSeconds] }),
  entry('datetime', 'datetime'),
  entry('smalldatetime', 'datetime'),
  entry('char', 'string', { aliases: ['character'], params: [integerParam('length', 1, 8000)] }),
  entry('varchar', 'string', {
    aliases: ['char varying', 'character varying'],
    params: [integerParam('length', 1, 8000)],
    param_values: maxLength,
  }),
  entry('text', 'string'),
  entry('nchar', 'string', {
    aliases: ['national char', 'national character'],
    params: [integerParam('length', 1, 4000)],
  }),
  entry('nvarchar', 'string', {
    aliases: ['national char varying', 'national character varying'],
    params: [integerParam('length', 1, 4000)],
    param_values: maxLength,
  }),
  entry('ntext', 'string', { aliases: ['national text'] }),
  entry('sysname', 'string'),
  entry('binary', 'binary', { params: [integerParam('length', 1, 8000)] }),
  entry('varbinary', 'binary', {
    aliases: ['binary varying'],
    params: [integerParam('length', 1, 8000)],
    param_values: maxLength,
  }),
  entry('image', 'binary'),
  entry('rowversion', 'binary', { aliases: ['timestamp'] }),
  entry('uniqueidentifier', 'uuid'),
  entry('xml', 'xml'),
  entry('geometry', 'spatial'),
  entry('geography', 'spatial'),
  entry('hierarchyid', 'other'),
  entry('sql_variant', 'other'),
];
