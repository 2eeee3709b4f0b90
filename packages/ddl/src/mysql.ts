import type { SchemaBuilder } from './builder';
export async function readMysql(_sql: string): Promise<SchemaBuilder> {
  throw new Error('not yet');
}
