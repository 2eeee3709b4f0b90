// Shorthands for writing catalog data: each driver file lists its types as one readable line each.
import type {
  DataTypeEntry,
  DataTypeFamily,
  DataTypeOption,
  DataTypeParam,
  DataTypeParamValue,
} from './types';

export interface EntryExtras {
  aliases?: string[];
  params?: DataTypeParam[];
  param_values?: DataTypeParamValue[];
  options?: DataTypeOption[];
}

export function entry(name: string, family: DataTypeFamily, extras: EntryExtras = {}): DataTypeEntry {
  return {
    name,
    aliases: extras.aliases ?? [],
    params: extras.params ?? [],
    param_values: extras.param_values ?? [],
    options: extras.options ?? [],
    family,
  };
}

export function integerParam(
  name: 'length' | 'precision' | 'scale',
  min: number,
  max: number,
  required = false,
): DataTypeParam {
  return { name, type: 'integer', required, min, max };
}

export function valuesParam(maxValues: number | null): DataTypeParam {
  return { name: 'values', type: 'string_list', required: true, min: 1, max: maxValues };
}

export function keywordParam(name: 'fields'): DataTypeParam {
  return { name, type: 'keyword', required: false, min: null, max: null };
}

export function paramValues(param: 'length' | 'fields', values: readonly string[]): DataTypeParamValue[] {
  return values.map((value) => ({ param, value }));
}
