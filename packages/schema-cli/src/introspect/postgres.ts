// Reads a live PostgreSQL catalog into the importer's SchemaBuilder (the same collector DDL import fills),
// inside a READ ONLY transaction. Needs only CONNECT on the database and USAGE on its schemas: every
// query reads pg_catalog, which any role may read.
import type { SchemaBuilder } from '@dss/ddl';
import { INDEX_METHODS } from '@dss/schema';
import { Client } from 'pg';
import type { DatabaseTarget } from './target';

const OWN = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
  AND n.nspname NOT LIKE 'pg\\_temp%'`;
const ACTIONS: Record<string, string | null> = {
  a: null,
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};
const SERIALS: Record<string, string> = { integer: 'serial', bigint: 'bigserial', smallint: 'smallserial' };

const qualified = (schema: string, name: string) => (schema === 'public' ? name : `${schema}.${name}`);

export async function readPostgres(target: DatabaseTarget, builder: SchemaBuilder): Promise<string[]> {
  const client = new Client({ connectionString: target.url.href, application_name: 'dss introspect' });
  await client.connect();
  try {
    await client.query('BEGIN TRANSACTION READ ONLY');
    const warnings = await readTables(client, builder);
    await client.query('ROLLBACK');
    return warnings;
  } finally {
    await client.end();
  }
}

/** Reads the catalog through a connection the caller holds (inside its transaction, e.g. `dss check`). */
export async function readTables(client: Client, builder: SchemaBuilder): Promise<string[]> {
  const warnings: string[] = [];
  const relations = await client.query<{
    schema: string;
    name: string;
    kind: string;
    comment: string | null;
  }>(
    `SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind, obj_description(c.oid, 'pg_class') AS comment
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm') AND ${OWN}
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
      ORDER BY n.nspname, c.relname`,
  );
  for (const row of relations.rows) {
    const name = qualified(row.schema, row.name);
    if (row.kind === 'v' || row.kind === 'm') {
      warnings.push(
        `${row.kind === 'm' ? 'materialized view' : 'view'} ${name}: views are not part of a diagram; skipped`,
      );
      continue;
    }
    builder.addTable(name).comment = row.comment;
  }
  await readColumns(client, builder);
  await readConstraints(client, builder);
  warnings.push(...(await readIndexes(client, builder)));
  return warnings;
}

async function readColumns(client: Client, builder: SchemaBuilder): Promise<void> {
  const columns = await client.query<{
    schema: string;
    table: string;
    name: string;
    type: string;
    not_null: boolean;
    default: string | null;
    identity: string;
    generated: string;
    comment: string | null;
    labels: string[] | null;
    owned_sequence: boolean;
  }>(
    `SELECT n.nspname AS schema, c.relname AS table, a.attname AS name,
            -- A domain is read as its base type, as the DDL import reads it.
            format_type(CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE a.atttypid END,
                        CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END) AS type,
            a.attnotnull AS not_null, pg_get_expr(ad.adbin, ad.adrelid) AS default,
            a.attidentity AS identity, a.attgenerated AS generated, col_description(c.oid, a.attnum) AS comment,
            (SELECT array_agg(e.enumlabel::text ORDER BY e.enumsortorder) FROM pg_enum e
              WHERE e.enumtypid = CASE WHEN t.typcategory = 'A' THEN t.typelem ELSE t.oid END) AS labels,
            pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) IS NOT NULL
              AND a.attidentity = '' AS owned_sequence
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_type t ON t.oid = a.atttypid
       LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
      WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND ${OWN}
      ORDER BY n.nspname, c.relname, a.attnum`,
  );
  for (const row of columns.rows) {
    const table = builder.table(qualified(row.schema, row.table));
    if (!table) continue;
    const array = row.type.endsWith('[]') ? '[]' : '';
    // A column numbered by a sequence it owns is what `serial` writes; read it back as serial.
    const serial = row.owned_sequence && /^nextval\(/.test(row.default ?? '') ? SERIALS[row.type] : undefined;
    const written = row.labels !== null ? `enum${array}` : (serial ?? row.type);
    const { type, unsigned } = builder.resolveType(table.name, row.name, written, row.labels ?? undefined);
    table.columns.push({
      name: row.name,
      written,
      type,
      default: serial || row.generated !== '' ? null : row.default,
      nullable: !row.not_null,
      primary: false,
      unique: false,
      autoIncrement: serial !== undefined || row.identity !== '' || /^nextval\(/.test(row.default ?? ''),
      unsigned,
      comment: row.comment,
    });
  }
}

async function readConstraints(client: Client, builder: SchemaBuilder): Promise<void> {
  const constraints = await client.query<{
    schema: string;
    table: string;
    name: string;
    type: string;
    columns: string[];
    ref_schema: string | null;
    ref_table: string | null;
    ref_columns: string[] | null;
    on_delete: string;
    on_update: string;
  }>(
    `SELECT n.nspname AS schema, t.relname AS table, c.conname AS name, c.contype AS type,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num) AS columns,
            rn.nspname AS ref_schema, r.relname AS ref_table,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num) AS ref_columns,
            c.confdeltype AS on_delete, c.confupdtype AS on_update
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_class r ON r.oid = c.confrelid LEFT JOIN pg_namespace rn ON rn.oid = r.relnamespace
      WHERE c.contype IN ('p', 'u', 'f') AND ${OWN}
        -- A partition's copy of its parent's foreign key is the parent's; DDL declares it once.
        AND (c.contype <> 'f' OR c.conparentid = 0)
      ORDER BY n.nspname, t.relname, c.contype, c.conname`,
  );
  for (const row of constraints.rows) {
    const table = qualified(row.schema, row.table);
    if (row.type === 'f')
      builder.addForeignKey({
        name: row.name,
        table,
        columns: row.columns,
        refTable: qualified(row.ref_schema ?? '', row.ref_table ?? ''),
        refColumns: row.ref_columns ?? [],
        onDelete: ACTIONS[row.on_delete] ?? null,
        onUpdate: ACTIONS[row.on_update] ?? null,
      });
    else
      builder.addIndex(table, {
        name: row.name,
        type: row.type === 'p' ? 'primary' : 'unique',
        columns: row.columns,
      });
  }
}

/** Indexes no constraint made; expression indexes have no columns to draw and are reported. */
async function readIndexes(client: Client, builder: SchemaBuilder): Promise<string[]> {
  const indexes = await client.query<{
    schema: string;
    table: string;
    name: string;
    unique: boolean;
    method: string;
    columns: (string | null)[];
  }>(
    `SELECT n.nspname AS schema, t.relname AS table, i.relname AS name, x.indisunique AS unique,
            (SELECT am.amname::text FROM pg_am am WHERE am.oid = i.relam) AS method,
            (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(num, ord)
               LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.num) AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE ${OWN} AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype IN ('p', 'u', 'x'))
      ORDER BY n.nspname, t.relname, i.relname`,
  );
  const warnings: string[] = [];
  for (const row of indexes.rows) {
    const table = qualified(row.schema, row.table);
    if (!builder.table(table)) continue;
    if (row.columns.some((column) => column === null)) {
      warnings.push(`index ${row.name} on ${table}: an expression index has no columns to draw; skipped`);
      continue;
    }
    // The access method, as `USING …` imports it: absent for the default (btree).
    const method = INDEX_METHODS.find((known) => known === row.method && known !== 'btree');
    builder.addIndex(table, {
      name: row.name,
      type: row.unique ? 'unique' : 'index',
      columns: row.columns as string[],
      ...(method ? { method } : {}),
    });
  }
  return warnings;
}
