// Black-box: a diagram exported as SQL, DBML, Mermaid, SVG and PNG, the migration SQL of a proposal and of
// any two versions (additions within /v1). The SQL is loaded into the real PostgreSQL of the machine.
import * as crypto from 'node:crypto';
import { Client } from 'pg';
import { call, errorOf } from '../support/api';
import { dss, type Stack, startStack, teamMemberToken } from '../support/stack';

const BASE = {
  strategy: 'merge',
  tables: [
    {
      name: 'customers',
      comment: "People who buy; it's here",
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true, is_auto_increment: true },
        { name: 'email', type: 'varchar(200)', is_nullable: false, is_unique_key: true },
        { name: 'nick', type: 'varchar(40)' },
      ],
    },
    {
      name: 'orders',
      columns: [
        { name: 'id', type: 'bigint', is_primary_key: true },
        { name: 'customer_id', type: 'bigint', is_nullable: false, is_index: true },
        { name: 'status', type: 'enum', enum_values: ['new', 'paid'], default: "'new'" },
      ],
    },
  ],
  relationships: [
    {
      type: 'many-to-one',
      source_table: 'orders',
      source_column: 'customer_id',
      target_table: 'customers',
      target_column: 'id',
    },
  ],
};

/** Runs a script in a fresh PostgreSQL database and answers `table.column` of every column it made. */
async function loadIntoPostgres(sql: string): Promise<string[]> {
  const name = `dss_export_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const client = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: name });
  try {
    await client.connect();
    await client.query(sql);
    const { rows } = await client.query<{ c: string }>(
      `SELECT table_name || '.' || column_name AS c FROM information_schema.columns
        WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    );
    return rows.map((row) => row.c);
  } finally {
    await client.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

describe('export, diff as SQL and proposal migrations', () => {
  let stack: Stack;
  let editor: string;
  let viewer: string;
  let outsider: string;
  let uuid: string;
  let pending: string;
  let applied: string;

  beforeAll(async () => {
    stack = await startStack();
    editor = await teamMemberToken(stack, {
      team: 'export-e2e',
      email: 'ed@export.test',
      role: 'editor',
      write: true,
    });
    viewer = await teamMemberToken(stack, { team: 'export-e2e', email: 'vi@export.test', role: 'viewer' });
    outsider = await teamMemberToken(stack, { team: 'other-export', email: 'out@other.test', role: 'owner' });
    const created = await call(stack.baseUrl, '/diagrams', {
      method: 'POST',
      token: editor,
      json: { name: 'Shop / main', driver: 'pgsql', schema: BASE },
    });
    uuid = (created.body as { data: { uuid: string } }).data.uuid;
    const propose = async (schema: object) => {
      const response = await call(stack.baseUrl, `/diagrams/${uuid}/proposals`, {
        method: 'POST',
        token: editor,
        json: { title: 'Change', message: 'For the export test.', schema },
      });
      return (response.body as { data: { uuid: string } }).data.uuid;
    };
    applied = await propose({
      strategy: 'merge',
      tables: [{ name: 'invoices', columns: [{ name: 'id', type: 'bigint', is_primary_key: true }] }],
    });
    expect((await dss(stack, 'proposal', 'apply', applied, '--email', 'ed@export.test')).code).toBe(0);
    pending = await propose({
      strategy: 'merge',
      tables: [{ name: 'customers', columns: [{ name: 'handle', old_name: 'nick', type: 'varchar(20)' }] }],
      deletions: { tables: ['invoices'] },
    });
    // A stack, three people and a CLI apply: generous on a loaded 2-core machine, not a timing assertion.
  }, 120_000);
  afterAll(async () => {
    await stack.stop();
  });

  it('exports a CREATE script that real PostgreSQL loads, as a viewer, with a file name and an ETag', async () => {
    const response = await call(stack.baseUrl, `/diagrams/${uuid}/export?format=sql`, { token: viewer });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/sql; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="Shop-main.sql"');
    expect(await loadIntoPostgres(response.text)).toEqual([
      'customers.id',
      'customers.email',
      'customers.nick',
      'invoices.id',
      'orders.id',
      'orders.customer_id',
      'orders.status',
    ]);
    const again = await call(stack.baseUrl, `/diagrams/${uuid}/export?format=sql`, {
      token: viewer,
      headers: { 'If-None-Match': response.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('exports an older version with version=N, and DBML, Mermaid and SVG as text', async () => {
    const first = await call(stack.baseUrl, `/diagrams/${uuid}/export?format=sql&version=1`, {
      token: viewer,
    });
    expect(first.text).not.toContain('invoices');
    expect(first.headers.get('content-disposition')).toContain('-v1.sql');
    const dbml = await call(stack.baseUrl, `/diagrams/${uuid}/export?format=dbml`, { token: viewer });
    expect(dbml.text).toContain('Table "customers" {');
    expect(dbml.text).toContain('Ref: "orders"."customer_id" > "customers"."id"');
    const mermaid = await call(stack.baseUrl, `/diagrams/${uuid}/export?format=mermaid`, { token: viewer });
    expect(mermaid.text.split('\n')[0]).toBe('erDiagram');
    expect(mermaid.text).toContain('orders }o--|| customers');
    const svg = await call(stack.baseUrl, `/diagrams/${uuid}/export?format=svg`, { token: viewer });
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(svg.text).toMatch(/^<svg [^>]*width="\d+" height="\d+"/);
    expect((svg.text.match(/data-table="/g) ?? []).length).toBe(3);
  });

  it('exports a PNG drawn without a browser', async () => {
    const response = await fetch(`${stack.baseUrl}/diagrams/${uuid}/export?format=png`, {
      headers: { Authorization: `Bearer ${viewer}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // IHDR: width and height, big-endian, at bytes 16–23; twice the drawing's size.
    expect(bytes.readUInt32BE(16)).toBeGreaterThan(400);
    expect(bytes.length).toBeGreaterThan(5000);
  });

  it('refuses an unknown format or version with 422 and a version it does not have with 404', async () => {
    const badFormat = await call(stack.baseUrl, `/diagrams/${uuid}/export?format=xlsx`, { token: viewer });
    expect(badFormat.status).toBe(422);
    expect(errorOf(badFormat).code).toBe('invalid_request');
    const badVersion = await call(stack.baseUrl, `/diagrams/${uuid}/export?version=0`, { token: viewer });
    expect(badVersion.status).toBe(422);
    const missing = await call(stack.baseUrl, `/diagrams/${uuid}/export?version=99`, { token: viewer });
    expect(missing.status).toBe(404);
    expect(errorOf(missing).code).toBe('not_found');
  });

  it('writes the migration of a pending proposal: rename as a rename, narrowing and the dropped table warned', async () => {
    const response = await call(stack.baseUrl, `/proposals/${pending}/migration?format=json`, {
      token: viewer,
    });
    expect(response.status).toBe(200);
    const { data } = response.body as {
      data: { sql: string; statements: string[]; warnings: { code: string; statement: number }[] };
    };
    expect(data.statements).toContain('ALTER TABLE "customers" RENAME COLUMN "nick" TO "handle"');
    expect(data.warnings.map((warning) => warning.code).sort()).toEqual(['drops_table', 'narrows_type']);
    const dropped = data.warnings.find((warning) => warning.code === 'drops_table');
    expect(data.statements[dropped!.statement]).toBe('DROP TABLE "invoices"');
    const safety = (response.body as { data: { safety: string[] } }).data.safety;
    expect(safety).toHaveLength(data.statements.length);
    expect(safety[dropped!.statement]).toBe('destructive');
    const narrowed = data.warnings.find((warning) => warning.code === 'narrows_type');
    expect(safety[narrowed!.statement]).toBe('guarded');
    expect(data.sql).toContain(`-- statement ${dropped!.statement} (destructive)\nDROP TABLE "invoices";`);
    // Run on a database at the base version, it gives the proposed schema.
    const base = await call(stack.baseUrl, `/diagrams/${uuid}/export?format=sql`, { token: viewer });
    const columns = await loadIntoPostgres(`${base.text}\n${data.sql}`);
    expect(columns).toContain('customers.handle');
    expect(columns.some((column) => column.startsWith('invoices.'))).toBe(false);
    const text = await call(stack.baseUrl, `/proposals/${pending}/migration`, { token: viewer });
    expect(text.headers.get('content-type')).toBe('application/sql; charset=utf-8');
    expect(text.text).toMatch(/^-- PostgreSQL: one transaction/);
    expect(text.text).toMatch(/^-- warning drops_table \(statement \d+\)/m);
  });

  it('writes the migration of an applied proposal from the version it wrote', async () => {
    const response = await call(stack.baseUrl, `/proposals/${applied}/migration?format=json`, {
      token: viewer,
    });
    expect(response.status).toBe(200);
    const { data } = response.body as { data: { statements: string[]; warnings: unknown[] } };
    expect(data.statements).toEqual([
      'BEGIN',
      'CREATE TABLE "invoices" (\n  "id" bigint NOT NULL,\n  CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")\n)',
      'COMMIT',
    ]);
    expect(data.warnings).toEqual([]);
  });

  it('answers the diff of two versions as migration SQL', async () => {
    const response = await call(stack.baseUrl, `/diagrams/${uuid}/diff?from=1&to=2&format=sql`, {
      token: viewer,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/sql; charset=utf-8');
    expect(response.text).toContain('CREATE TABLE "invoices"');
  });

  it('creates a diagram from DBML through the importer, and refuses two sources or an oversized DBML', async () => {
    const dbml =
      'Table authors {\n  id bigint [pk, increment]\n  name varchar(80) [not null]\n}\n\nTable books {\n  id bigint [pk]\n  author_id bigint\n}\n\nRef: books.author_id > authors.id\n';
    const created = await call(stack.baseUrl, '/diagrams', {
      method: 'POST',
      token: editor,
      json: { name: 'From DBML', driver: 'mysql', dbml },
    });
    expect([201, 202]).toContain(created.status);
    const uuid = (created.body as { data: { uuid: string } }).data.uuid;
    let status = (created.body as { data: { status: string } }).data.status;
    // Bounded wait for the import (at most 60 polls of 250 ms).
    for (let poll = 0; poll < 60 && status === 'importing'; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (
        (await call(stack.baseUrl, `/diagrams/${uuid}`, { token: editor })).body as {
          data: { status: string };
        }
      ).data.status;
    }
    expect(status).toBe('ready');
    const schema = await call(stack.baseUrl, `/diagrams/${uuid}/schema`, { token: editor });
    const data = (
      schema.body as {
        data: {
          tables: { name: string; columns: { name: string; driver_data_type_name: string }[] }[];
          relationships: unknown[];
        };
      }
    ).data;
    expect(data.tables.map((table) => table.name)).toEqual(['authors', 'books']);
    expect(data.tables[0]!.columns.map((column) => column.driver_data_type_name)).toEqual([
      'bigint',
      'varchar',
    ]);
    expect(data.relationships).toHaveLength(1);

    const both = await call(stack.baseUrl, '/diagrams', {
      method: 'POST',
      token: editor,
      json: { driver: 'mysql', dbml, ddl: 'CREATE TABLE a (id int);' },
    });
    expect(both.status).toBe(422);
    expect(errorOf(both).code).toBe('invalid_request');
    const large = await call(stack.baseUrl, '/diagrams', {
      method: 'POST',
      token: editor,
      json: { driver: 'mysql', dbml: `Table a {\n  id int\n}\n${'// padding\n'.repeat(20_000)}` },
    });
    expect(large.status).toBe(413);
    expect(errorOf(large).code).toBe('payload_too_large');
  });

  it('hides every new endpoint from another team with 404', async () => {
    for (const path of [
      `/diagrams/${uuid}/export?format=sql`,
      `/diagrams/${uuid}/export?format=png`,
      `/proposals/${pending}/migration`,
      `/diagrams/${uuid}/diff?format=sql`,
    ]) {
      const response = await call(stack.baseUrl, path, { token: outsider });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
  });
});
