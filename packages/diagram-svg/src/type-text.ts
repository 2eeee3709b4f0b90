// A column's type as people write it: `varchar(255)`, `decimal(10,2)`, `enum('a','it''s')`, `text[]`,
// `interval day to second`, `int unsigned`. Plain text; escaping is the writer's job.
import type { Column, DataTypeParams } from '@dss/schema';
import { textOf } from './xml';

export function columnTypeText(
  column: Pick<Column, 'driver_data_type_name' | 'driver_data_type_params' | 'is_unsigned'>,
): string {
  const params = column.driver_data_type_params;
  let text = textOf(column.driver_data_type_name);
  if (params !== null && typeof params === 'object') {
    text += typeArguments(params);
    if (params.fields !== undefined) text += ` ${textOf(params.fields)}`;
    if (params.array === true) text += '[]';
  }
  if (column.is_unsigned === true) text += ' unsigned';
  return text;
}

function typeArguments(params: DataTypeParams): string {
  if (Array.isArray(params.values))
    return `(${params.values.map((value) => `'${textOf(value).replaceAll("'", "''")}'`).join(',')})`;
  if (params.length !== undefined) return `(${textOf(params.length)})`;
  if (params.precision !== undefined && params.scale !== undefined)
    return `(${textOf(params.precision)},${textOf(params.scale)})`;
  if (params.precision !== undefined) return `(${textOf(params.precision)})`;
  return '';
}
