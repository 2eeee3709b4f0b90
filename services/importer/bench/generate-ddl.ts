// Generates the benchmark's DDL: one schema of tables × 15 columns with foreign keys, printed the way each
// dialect's usual dump tool prints it (mysqldump, pg_dump, SSMS "Generate Scripts"). The issue asks for
// about 250 tables in about 200KB; a dump of 15-column tables takes 1.2–1.6KB per table, so each dialect
// gets as many tables (at most 250) as fit just under the API's 200KB limit. Deterministic.
export type BenchDriver = 'mysql' | 'pgsql' | 'sqlsrv';

export const MAX_BENCH_TABLES = 250;
/** The API's DDL limit (packages/schema limits.ts, MAX_DDL_BYTES). */
export const BENCH_MAX_BYTES = 200 * 1024;

const MODULES = ['sales', 'billing', 'stock', 'crm', 'hr', 'ops', 'audit', 'ship', 'cms', 'auth'];
const ENTITIES = [
  'account',
  'address',
  'batch',
  'booking',
  'campaign',
  'contact',
  'contract',
  'device',
  'document',
  'event',
  'invoice',
  'item',
  'ledger',
  'location',
  'message',
  'note',
  'order',
  'payment',
  'person',
  'project',
  'quote',
  'refund',
  'task',
  'ticket',
  'vendor',
];

interface BenchColumn {
  name: string;
  /** Logical kind, printed per dialect. */
  kind: 'id' | 'fk' | 'code' | 'name' | 'money' | 'count' | 'flag' | 'status' | 'text' | 'created' | 'date';
  nullable: boolean;
  unique?: boolean;
  references?: string;
}

interface BenchTable {
  name: string;
  columns: BenchColumn[];
}

/** The logical schema: table i references two earlier tables; every fifth table is one-to-one with its parent. */
export function benchSchema(count = MAX_BENCH_TABLES): BenchTable[] {
  const tables: BenchTable[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${MODULES[i % MODULES.length]}_${ENTITIES[Math.floor(i / MODULES.length) % ENTITIES.length]}`;
    const columns: BenchColumn[] = [{ name: 'id', kind: 'id', nullable: false }];
    const parents = i === 0 ? [] : [...new Set([(i * 7) % i, (i * 3 + 1) % i])];
    parents.forEach((parent, n) => {
      const target = tables[parent] as BenchTable;
      columns.push({
        name: `${target.name}_id`,
        kind: 'fk',
        nullable: n > 0,
        unique: n === 0 && i % 5 === 0,
        references: target.name,
      });
    });
    const rest: BenchColumn[] = [
      { name: 'code', kind: 'code', nullable: false, unique: true },
      { name: 'display_name', kind: 'name', nullable: false },
      { name: 'amount', kind: 'money', nullable: false },
      { name: 'tax_amount', kind: 'money', nullable: true },
      { name: 'quantity', kind: 'count', nullable: false },
      { name: 'is_active', kind: 'flag', nullable: false },
      { name: 'status', kind: 'status', nullable: false },
      { name: 'notes', kind: 'text', nullable: true },
      { name: 'valid_from', kind: 'date', nullable: true },
      { name: 'valid_to', kind: 'date', nullable: true },
      { name: 'external_ref', kind: 'name', nullable: true },
      { name: 'created_at', kind: 'created', nullable: false },
      { name: 'updated_at', kind: 'created', nullable: false },
    ];
    columns.push(...rest.slice(0, 15 - columns.length));
    tables.push({ name, columns });
  }
  return tables;
}

/** The dump of the largest prefix of the schema (tables reference earlier ones only) that fits the limit. */
export function generateBenchDdl(driver: BenchDriver): { ddl: string; tables: number } {
  let low = 1;
  let high = MAX_BENCH_TABLES;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (Buffer.byteLength(print(driver, benchSchema(mid))) <= BENCH_MAX_BYTES) low = mid;
    else high = mid - 1;
  }
  return { ddl: print(driver, benchSchema(low)), tables: low };
}

function print(driver: BenchDriver, tables: BenchTable[]): string {
  if (driver === 'mysql') return mysqldump(tables);
  if (driver === 'pgsql') return pgDump(tables);
  return ssmsScript(tables);
}

function mysqlType(column: BenchColumn): string {
  switch (column.kind) {
    case 'id':
    case 'fk':
      return 'bigint unsigned';
    case 'code':
      return 'varchar(32)';
    case 'name':
      return 'varchar(191)';
    case 'money':
      return 'decimal(12,2)';
    case 'count':
      return 'int';
    case 'flag':
      return 'tinyint(1)';
    case 'status':
      return "enum('new','open','closed')";
    case 'text':
      return 'text';
    case 'date':
      return 'date';
    case 'created':
      return 'timestamp';
  }
}

function mysqlDefault(column: BenchColumn): string {
  if (column.kind === 'id') return ' AUTO_INCREMENT';
  if (column.kind === 'money' && !column.nullable) return " DEFAULT '0.00'";
  if (column.kind === 'flag') return " DEFAULT '1'";
  if (column.kind === 'status') return " DEFAULT 'new'";
  if (column.kind === 'created') return ' DEFAULT CURRENT_TIMESTAMP';
  return column.nullable ? ' DEFAULT NULL' : '';
}

function mysqldump(tables: BenchTable[]): string {
  const out = [
    '-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)',
    '--',
    '-- Host: localhost    Database: bench',
    '-- ------------------------------------------------------',
    '-- Server version\t8.0.36',
    '',
    '/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;',
    '/*!50503 SET NAMES utf8mb4 */;',
    '/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;',
    '',
  ];
  for (const table of tables) {
    out.push(
      '--',
      `-- Table structure for table \`${table.name}\``,
      '--',
      '',
      `DROP TABLE IF EXISTS \`${table.name}\`;`,
      `CREATE TABLE \`${table.name}\` (`,
    );
    const lines = table.columns.map(
      (c) => `  \`${c.name}\` ${mysqlType(c)}${c.nullable ? '' : ' NOT NULL'}${mysqlDefault(c)}`,
    );
    lines.push('  PRIMARY KEY (`id`)');
    for (const c of table.columns)
      if (c.unique) lines.push(`  UNIQUE KEY \`${table.name}_${c.name}_unique\` (\`${c.name}\`)`);
    for (const c of table.columns)
      if (c.kind === 'fk' && !c.unique) lines.push(`  KEY \`${table.name}_${c.name}_idx\` (\`${c.name}\`)`);
    for (const c of table.columns)
      if (c.references)
        lines.push(
          `  CONSTRAINT \`${table.name}_${c.name}_fk\` FOREIGN KEY (\`${c.name}\`) REFERENCES \`${c.references}\` (\`id\`)`,
        );
    out.push(`${lines.join(',\n')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;`, '');
  }
  out.push('/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;', '-- Dump completed', '');
  return out.join('\n');
}

function pgType(column: BenchColumn): string {
  switch (column.kind) {
    case 'id':
    case 'fk':
      return 'bigint';
    case 'code':
      return 'character varying(32)';
    case 'name':
      return 'character varying(191)';
    case 'money':
      return 'numeric(12,2)';
    case 'count':
      return 'integer';
    case 'flag':
      return 'boolean';
    case 'status':
      return 'public.bench_status';
    case 'text':
      return 'text';
    case 'date':
      return 'date';
    case 'created':
      return 'timestamp with time zone';
  }
}

function pgDefault(column: BenchColumn): string {
  if (column.kind === 'money' && !column.nullable) return ' DEFAULT 0';
  if (column.kind === 'flag') return ' DEFAULT true';
  if (column.kind === 'status') return " DEFAULT 'new'::public.bench_status";
  if (column.kind === 'created') return ' DEFAULT now()';
  return '';
}

function pgDump(tables: BenchTable[]): string {
  const out = [
    '--',
    '-- PostgreSQL database dump',
    '--',
    '',
    'SET statement_timeout = 0;',
    "SET client_encoding = 'UTF8';",
    "SELECT pg_catalog.set_config('search_path', '', false);",
    "SET default_tablespace = '';",
    '',
    "CREATE TYPE public.bench_status AS ENUM (\n    'new',\n    'open',\n    'closed'\n);",
    '',
  ];
  for (const table of tables) {
    const lines = table.columns.map(
      (c) => `    ${c.name} ${pgType(c)}${pgDefault(c)}${c.nullable ? '' : ' NOT NULL'}`,
    );
    out.push(
      `CREATE TABLE public.${table.name} (\n${lines.join(',\n')}\n);`,
      '',
      `ALTER TABLE public.${table.name} OWNER TO app;`,
      '',
      `ALTER TABLE public.${table.name} ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (\n    SEQUENCE NAME public.${table.name}_id_seq\n);`,
      '',
    );
  }
  for (const table of tables) {
    out.push(
      `ALTER TABLE ONLY public.${table.name}\n    ADD CONSTRAINT ${table.name}_pkey PRIMARY KEY (id);`,
      '',
    );
    for (const c of table.columns)
      if (c.unique)
        out.push(
          `ALTER TABLE ONLY public.${table.name}\n    ADD CONSTRAINT ${table.name}_${c.name}_key UNIQUE (${c.name});`,
          '',
        );
  }
  for (const table of tables)
    for (const c of table.columns)
      if (c.kind === 'fk' && !c.unique)
        out.push(
          `CREATE INDEX ${table.name}_${c.name}_idx ON public.${table.name} USING btree (${c.name});`,
          '',
        );
  for (const table of tables)
    for (const c of table.columns)
      if (c.references)
        out.push(
          `ALTER TABLE ONLY public.${table.name}\n    ADD CONSTRAINT ${table.name}_${c.name}_fkey FOREIGN KEY (${c.name}) REFERENCES public.${c.references}(id);`,
          '',
        );
  out.push('--', '-- PostgreSQL database dump complete', '--', '');
  return out.join('\n');
}

function sqlsrvType(column: BenchColumn): string {
  switch (column.kind) {
    case 'id':
    case 'fk':
      return '[int]';
    case 'code':
      return '[nvarchar](32)';
    case 'name':
      return '[nvarchar](191)';
    case 'money':
      return '[decimal](12, 2)';
    case 'count':
      return '[int]';
    case 'flag':
      return '[bit]';
    case 'status':
      return '[varchar](10)';
    case 'text':
      return '[nvarchar](max)';
    case 'date':
      return '[date]';
    case 'created':
      return '[datetime2](7)';
  }
}

function sqlsrvDefault(column: BenchColumn): string | null {
  if (column.kind === 'money' && !column.nullable) return '((0))';
  if (column.kind === 'flag') return '((1))';
  if (column.kind === 'status') return "('new')";
  if (column.kind === 'created') return '(sysutcdatetime())';
  return null;
}

function ssmsScript(tables: BenchTable[]): string {
  const out = ['USE [bench]', 'GO'];
  for (const table of tables) {
    const lines = table.columns.map(
      (c) =>
        `\t[${c.name}] ${sqlsrvType(c)}${c.kind === 'id' ? ' IDENTITY(1,1)' : ''} ${c.nullable ? 'NULL' : 'NOT NULL'},`,
    );
    out.push(
      `/****** Object:  Table [dbo].[${table.name}] ******/`,
      'SET ANSI_NULLS ON',
      'GO',
      `CREATE TABLE [dbo].[${table.name}](`,
      ...lines,
      ` CONSTRAINT [PK_${table.name}] PRIMARY KEY CLUSTERED ([id] ASC)`,
      ') ON [PRIMARY]',
      'GO',
    );
  }
  for (const table of tables)
    for (const c of table.columns) {
      if (c.unique)
        out.push(
          `CREATE UNIQUE NONCLUSTERED INDEX [UX_${table.name}_${c.name}] ON [dbo].[${table.name}] ([${c.name}] ASC)`,
          'GO',
        );
      const value = sqlsrvDefault(c);
      if (value) out.push(`ALTER TABLE [dbo].[${table.name}] ADD DEFAULT ${value} FOR [${c.name}]`, 'GO');
    }
  for (const table of tables)
    for (const c of table.columns)
      if (c.references)
        out.push(
          `ALTER TABLE [dbo].[${table.name}] WITH CHECK ADD CONSTRAINT [FK_${table.name}_${c.name}] FOREIGN KEY([${c.name}])`,
          `REFERENCES [dbo].[${c.references}] ([id])`,
          'GO',
          `ALTER TABLE [dbo].[${table.name}] CHECK CONSTRAINT [FK_${table.name}_${c.name}]`,
          'GO',
        );
  return `${out.join('\n')}\n`;
}
