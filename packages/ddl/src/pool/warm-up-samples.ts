// Small scripts each conversion worker converts before its first job (DSS_IMPORT_WARM_UP): they load the
// three parsers and let ANTLR fill its prediction caches with the constructs SSMS scripts are made of
// (SQL Server's first parse in a thread costs several times a warm one). Written for this purpose; the
// results are thrown away.
import type { DdlDriver } from '../result';

const SQLSRV = `SET ANSI_NULLS ON
GO
CREATE TABLE [dbo].[WarmCustomer](
\t[CustomerId] [int] IDENTITY(1,1) NOT NULL,
\t[Code] [nvarchar](20) NOT NULL,
\t[Name] [nvarchar](max) NULL,
\t[Credit] [decimal](12, 2) NOT NULL,
\t[Rate] [numeric](5, 3) NULL,
\t[Active] [bit] NOT NULL,
\t[Kind] [varchar](10) NULL,
\t[Small] [smallint] NULL,
\t[Big] [bigint] NULL,
\t[Born] [date] NULL,
\t[Seen] [datetime] NULL,
\t[Created] [datetime2](7) NOT NULL,
\t[Token] [uniqueidentifier] ROWGUIDCOL NOT NULL,
\t[Photo] [varbinary](max) NULL,
\t[Total]  AS ([Credit]*(2)),
 CONSTRAINT [PK_WarmCustomer] PRIMARY KEY CLUSTERED
(
\t[CustomerId] ASC
)WITH (PAD_INDEX = OFF, STATISTICS_NORECOMPUTE = OFF, IGNORE_DUP_KEY = OFF, ALLOW_ROW_LOCKS = ON, ALLOW_PAGE_LOCKS = ON) ON [PRIMARY],
 CONSTRAINT [UQ_WarmCustomer_Code] UNIQUE NONCLUSTERED ([Code] ASC)
) ON [PRIMARY] TEXTIMAGE_ON [PRIMARY]
GO
CREATE TABLE [warm].[Order] (
    [OrderId] INT NOT NULL IDENTITY (1, 1) PRIMARY KEY,
    [CustomerId] INT NOT NULL REFERENCES [dbo].[WarmCustomer] ([CustomerId]),
    [Note] NVARCHAR (200) NULL DEFAULT (N'none'),
    [Amount] MONEY NOT NULL CONSTRAINT [DF_Order_Amount] DEFAULT ((0)),
    [Placed] DATETIMEOFFSET NOT NULL DEFAULT (sysdatetimeoffset()),
    CONSTRAINT [FK_Order_Self] FOREIGN KEY ([OrderId]) REFERENCES [warm].[Order] ([OrderId]) ON DELETE NO ACTION
);
GO
CREATE NONCLUSTERED INDEX [IX_WarmCustomer_Name] ON [dbo].[WarmCustomer]
(
\t[Kind] ASC,
\t[Created] DESC
)
INCLUDE([Big]) WITH (PAD_INDEX = OFF, SORT_IN_TEMPDB = OFF, DROP_EXISTING = OFF, ONLINE = OFF) ON [PRIMARY]
GO
CREATE UNIQUE INDEX [UX_Order_Note] ON [warm].[Order] ([Note]) WHERE [Note] IS NOT NULL
GO
ALTER TABLE [dbo].[WarmCustomer] ADD  DEFAULT ((0)) FOR [Active]
GO
ALTER TABLE [dbo].[WarmCustomer] ADD  CONSTRAINT [DF_WarmCustomer_Created]  DEFAULT (sysutcdatetime()) FOR [Created]
GO
ALTER TABLE [dbo].[WarmCustomer] ADD  DEFAULT (newid()) FOR [Token]
GO
ALTER TABLE [dbo].[WarmCustomer] ADD  DEFAULT ('retail') FOR [Kind]
GO
ALTER TABLE [warm].[Order]  WITH CHECK ADD  CONSTRAINT [FK_Order_Customer] FOREIGN KEY([CustomerId])
REFERENCES [dbo].[WarmCustomer] ([CustomerId])
ON UPDATE CASCADE
ON DELETE CASCADE
GO
ALTER TABLE [warm].[Order] CHECK CONSTRAINT [FK_Order_Customer]
GO
ALTER TABLE [warm].[Order]  WITH CHECK ADD  CONSTRAINT [CK_Order_Amount] CHECK  (([Amount]>=(0)))
GO
ALTER TABLE [warm].[Order] ADD [Extra] [nvarchar](50) NULL
GO
ALTER TABLE [warm].[Order] ADD CONSTRAINT [UQ_Order] UNIQUE ([CustomerId], [Placed])
GO
`;

const MYSQL = `/*!40101 SET NAMES utf8mb4 */;
CREATE TABLE \`warm_customer\` (
  \`id\` int unsigned NOT NULL AUTO_INCREMENT,
  \`code\` varchar(20) NOT NULL,
  \`kind\` enum('a','b') NOT NULL DEFAULT 'a',
  \`flags\` set('x','y') DEFAULT NULL,
  \`credit\` decimal(12,2) NOT NULL DEFAULT '0.00',
  \`created_at\` timestamp NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`code\` (\`code\`),
  KEY \`kind_idx\` (\`kind\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='warm-up';
CREATE TABLE \`warm_order\` (
  \`id\` bigint unsigned NOT NULL AUTO_INCREMENT,
  \`customer_id\` int unsigned NOT NULL COMMENT 'buyer',
  PRIMARY KEY (\`id\`),
  CONSTRAINT \`fk\` FOREIGN KEY (\`customer_id\`) REFERENCES \`warm_customer\` (\`id\`) ON DELETE CASCADE
) ENGINE=InnoDB;
`;

const PGSQL = `SET client_encoding = 'UTF8';
CREATE TYPE public.warm_kind AS ENUM ('a', 'b');
CREATE TABLE public.warm_customer (
    id integer NOT NULL,
    code character varying(20) NOT NULL,
    kind public.warm_kind DEFAULT 'a'::public.warm_kind NOT NULL,
    tags text[],
    created_at timestamp with time zone DEFAULT now() NOT NULL
);
CREATE TABLE public.warm_order (id bigserial PRIMARY KEY, customer_id integer REFERENCES public.warm_customer(id));
ALTER TABLE ONLY public.warm_customer ADD CONSTRAINT warm_customer_pkey PRIMARY KEY (id);
CREATE UNIQUE INDEX warm_customer_code ON public.warm_customer USING btree (code);
COMMENT ON TABLE public.warm_customer IS 'warm-up';
`;

export const WARM_UP_SAMPLES: [DdlDriver, string][] = [
  ['pgsql', PGSQL],
  ['mysql', MYSQL],
  ['sqlsrv', SQLSRV],
];
