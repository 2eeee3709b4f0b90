import type { SchemaBuilder } from './builder';
export async function readSqlsrv(_sql: string): Promise<SchemaBuilder> {
  throw new Error('not yet');
}
