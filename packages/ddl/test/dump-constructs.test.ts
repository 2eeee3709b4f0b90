// Constructs of real dumps, each understood or skipped with a warning, never misread: pg_dump (SET,
// set_config, extensions, enums, domains, identity, partitions, ALTER TABLE ONLY, composite foreign keys,
// extension types), mysqldump of old servers (`/*!…*/`, legacy attributes, TYPE=MyISAM, generated and
// invisible columns, views in version comments) and SSMS/SQL Compare scripts (byte-order mark, GO, IF NOT
// EXISTS … BEGIN … END, EXEC sp_executesql N'…', temporal tables, computed columns, WITH (…) ON [PRIMARY]).
import { type ConvertResult, convertDdl } from '../src';

function summary(result: ConvertResult) {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return {
    tables: Object.fromEntries(
      result.document.tables.map((t) => [
        t.name,
        t.columns.map(
          (c) =>
            `${c.name}:${c.driver_data_type_name}${c.driver_data_type_params?.array ? '[]' : ''}` +
            `${c.is_nullable ? '' : ' not null'}${c.is_primary_key ? ' pk' : ''}${c.is_auto_increment ? ' auto' : ''}`,
        ),
      ]),
    ),
    relationships: result.document.relationships
      .map((r) => `${r.source_table}.${r.source_column} -> ${r.target_table}.${r.target_column}`)
      .sort(),
    warnings: result.warnings.map((w) => `${w.line}:${w.column} ${w.code} ${w.message}`),
  };
}

const PG_DUMP = `\uFEFFSET statement_timeout = 0;
SELECT pg_catalog.set_config('search_path', '', false);
CREATE EXTENSION IF NOT EXISTS postgis WITH SCHEMA public;
CREATE TYPE public.mood AS ENUM ('sad', 'ok');
CREATE DOMAIN public.posint AS integer CHECK (VALUE > 0);
CREATE TABLE public.a (
    id integer NOT NULL,
    x integer NOT NULL,
    m public.mood,
    p public.posint,
    g public.geometry(MultiPolygon,4326),
    t public.citext,
    l public.ltree,
    total numeric GENERATED ALWAYS AS (x * 2) STORED
);
ALTER TABLE public.a ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (SEQUENCE NAME public.a_id_seq START WITH 1 INCREMENT BY 1 NO MINVALUE NO MAXVALUE CACHE 1);
CREATE TABLE public.b (a_id integer, a_x integer, d date NOT NULL) PARTITION BY RANGE (d);
CREATE TABLE public.b_2020 PARTITION OF public.b FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
ALTER TABLE ONLY public.a ADD CONSTRAINT a_pkey PRIMARY KEY (id, x);
ALTER TABLE ONLY public.b ADD CONSTRAINT b_fk FOREIGN KEY (a_id, a_x) REFERENCES public.a(id, x);
`;

const MYSQLDUMP = `/*!40101 SET NAMES utf8 */;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
CREATE TABLE \`u\` (
  \`id\` int(11) unsigned zerofill NOT NULL AUTO_INCREMENT,
  \`name\` varchar(64) binary default NULL,
  \`nat\` national varchar(10) NOT NULL,
  \`c\` int GENERATED ALWAYS AS (id*2) VIRTUAL,
  \`inv\` int INVISIBLE,
  PRIMARY KEY (\`id\`)
) TYPE=MyISAM /*!40100 DEFAULT CHARSET=latin1 */;
CREATE TABLE v (id int primary key, u_id int(11) unsigned, KEY k (u_id), CONSTRAINT f FOREIGN KEY (u_id) REFERENCES u (id)) ENGINE=InnoDB;
/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 DEFINER=\`root\`@\`localhost\` SQL SECURITY DEFINER */ /*!50001 VIEW \`vv\` AS select 1 */;
`;

const SSMS = `\uFEFFUSE [db]
GO
SET ANSI_NULLS ON
GO
IF NOT EXISTS (SELECT * FROM sys.objects WHERE object_id = OBJECT_ID(N'[dbo].[T1]') AND type in (N'U'))
BEGIN
CREATE TABLE [dbo].[T1](
	[Id] [int] IDENTITY(1,1) NOT NULL,
	[Total] AS ([Id]*(2)),
	[ValidFrom] [datetime2](7) GENERATED ALWAYS AS ROW START NOT NULL,
	[ValidTo] [datetime2](7) GENERATED ALWAYS AS ROW END NOT NULL,
	PERIOD FOR SYSTEM_TIME ([ValidFrom], [ValidTo]),
 CONSTRAINT [PK_T1] PRIMARY KEY CLUSTERED ([Id] ASC) WITH (PAD_INDEX = OFF, STATISTICS_NORECOMPUTE = OFF) ON [PRIMARY]
) ON [PRIMARY]
WITH (SYSTEM_VERSIONING = ON (HISTORY_TABLE = [dbo].[T1History]))
END
GO
EXEC sp_executesql N'CREATE TABLE [dbo].[T2]([Id] int NOT NULL PRIMARY KEY, [T1Id] int NULL REFERENCES [dbo].[T1]([Id]), [Name] nvarchar(10) DEFAULT N''x'')'
GO
IF NOT EXISTS (SELECT * FROM sys.objects WHERE name = 'T3') CREATE TABLE T3 (id int)
GO
`;

describe('constructs of real dumps', () => {
  it('pgsql: reads pg_dump output; extension types take the closest catalog type and say so', async () => {
    expect(summary(await convertDdl('pgsql', PG_DUMP))).toEqual({
      tables: {
        a: [
          'id:integer not null pk auto',
          'x:integer not null pk',
          'm:enum',
          'p:integer',
          'g:bytea',
          't:text',
          'l:text',
          'total:numeric',
        ],
        b: ['a_id:integer', 'a_x:integer', 'd:date not null'],
        b_2020: ['a_id:integer', 'a_x:integer', 'd:date not null'],
      },
      relationships: ['b.a_id -> a.id', 'b.a_x -> a.x'],
      warnings: [
        '11:5 type_substituted a.g: type "public.geometry(multipolygon,4326)" is not in the pgsql data-type catalog; imported as bytea',
        '12:5 type_substituted a.t: type "public.citext" is not in the pgsql data-type catalog; imported as text',
        '13:5 type_substituted a.l: type "public.ltree" is not in the pgsql data-type catalog; imported as text',
        '14:5 expression_dropped a.total: generated column; its expression is not kept',
      ],
    });
  });

  it('mysql: reads an old mysqldump; an INVISIBLE attribute is dropped, not the column', async () => {
    expect(summary(await convertDdl('mysql', MYSQLDUMP))).toEqual({
      tables: {
        u: ['id:int not null pk auto', 'name:varchar', 'nat:varchar not null', 'c:int', 'inv:int'],
        v: ['id:int not null pk', 'u_id:int'],
      },
      relationships: ['v.u_id -> u.id'],
      warnings: [
        '8:13 clause_dropped table `u`: column `inv`: "INVISIBLE" could not be read; dropped',
        '3:1 expression_dropped u.c: generated column; its expression is not kept',
      ],
    });
  });

  it('sqlsrv: opens IF NOT EXISTS and sp_executesql wrappers and reads temporal and computed columns', async () => {
    expect(summary(await convertDdl('sqlsrv', SSMS))).toEqual({
      tables: {
        T1: [
          'Id:int not null pk auto',
          'Total:sql_variant',
          'ValidFrom:datetime2 not null',
          'ValidTo:datetime2 not null',
        ],
        T2: ['Id:int not null pk', 'T1Id:int', 'Name:nvarchar'],
        T3: ['id:int'],
      },
      relationships: ['T2.T1Id -> T1.Id'],
      warnings: ['7:1 expression_dropped T1.Total: computed column (AS [Id]*(2)); imported as sql_variant'],
    });
  });

  it('sqlsrv: a view created through sp_executesql inside IF NOT EXISTS is skipped, not read as a table', async () => {
    const sql =
      "IF NOT EXISTS (SELECT * FROM sys.views WHERE name = N'V')\nEXEC dbo.sp_executesql @statement = N'CREATE VIEW [dbo].[V] AS SELECT 1 AS [x]'\nGO\n" +
      'CREATE TABLE [A]([Id] int)\nGO\n';
    const result = summary(await convertDdl('sqlsrv', sql));
    expect(Object.keys(result.tables)).toEqual(['A']);
    expect(result.warnings).toEqual([]);
  });
});
