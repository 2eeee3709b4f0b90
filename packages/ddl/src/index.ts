// DDL → diagram document conversion for the three drivers. Pure: no network or disk I/O, so it can run in
// a worker thread: ConversionPool (src/pool) runs it in long-lived workers with a time limit and a heap cap,
// for the importer's jobs and the MCP server's visualize_schema.
import type { SchemaBuilder } from './builder';
import { type MysqlStatementParser, readMysql } from './mysql';
import { readPgsql } from './pgsql';
import type { ConvertResult, DdlDriver } from './result';
import { readSqlsrv, type SqlsrvUnitParser } from './sqlsrv';

export { convertDbml } from './dbml';
// The collector every source of a diagram fills (the DDL readers here, the CLI's live-catalog readers).
export { type DdlColumn, type DdlForeignKey, type DdlIndex, type DdlTable, SchemaBuilder } from './builder';
export type {
  ConvertResult,
  DdlDriver,
  DdlErrorCode,
  DdlWarning,
  DdlWarningCode,
  SourceFormat,
} from './result';
export { MAX_WARNINGS } from './result';
export { LineMap, splitStatements } from './split';
export { type MysqlStatementParser, parseMysqlStatements, type StatementParse } from './mysql';
export { parseSqlsrvUnits, type SqlsrvUnitParser, type UnitParse } from './sqlsrv';
export { ConversionPool, type ConversionPoolOptions, type LayoutFinish } from './pool/conversion-pool';
export {
  type Conversion,
  type ConversionLimits,
  type ConversionOutcome,
  runConversion,
  workerEntry,
} from './pool/run-conversion';

export interface ConvertOptions {
  /**
   * SQL Server: parses the per-table units (default: on this thread, in order). The importer passes one
   * that spreads them over several threads; answers must keep the order of the texts.
   */
  parseSqlsrvUnits?: SqlsrvUnitParser;
  /** MySQL: parses the pre-cleaned statements (default: on this thread, in order); the same contract. */
  parseMysqlStatements?: MysqlStatementParser;
  /** Called with what was read, before the document is built (DBML in adds groups, notes, defaults). */
  beforeDocument?: (builder: SchemaBuilder) => void;
}

const READERS: Record<DdlDriver, (sql: string, options: ConvertOptions) => Promise<SchemaBuilder>> = {
  pgsql: readPgsql,
  mysql: (sql, options) => readMysql(sql, options.parseMysqlStatements),
  sqlsrv: (sql, options) => readSqlsrv(sql, options.parseSqlsrvUnits),
};

/**
 * Converts a DDL script into a diagram document (laid out by the schema package). Tolerant by statement:
 * a statement the parser cannot read is skipped (after clause-level repairs for CREATE/ALTER TABLE,
 * src/recover.ts) and listed in `warnings`; the rest imports. It fails only when no table is readable:
 * `ddl_syntax_error` (with the first unreadable statement's line and column) when something could not be
 * read, else `ddl_no_tables`.
 */
export async function convertDdl(
  driver: DdlDriver,
  sql: string,
  options: ConvertOptions = {},
): Promise<ConvertResult> {
  let builder: SchemaBuilder;
  try {
    builder = await READERS[driver](sql.replace(/^\uFEFF/, ''), options);
  } catch (error) {
    return {
      ok: false,
      code: 'ddl_internal_error',
      message: `DDL conversion failed: ${(error as Error).message}`,
    };
  }
  if (builder.tables.size === 0) {
    const failure = builder.firstFailure;
    if (failure)
      return {
        ok: false,
        code: 'ddl_syntax_error',
        message: `${failure.message} (no table could be read)`,
        line: failure.line,
        column: failure.column,
      };
    return {
      ok: false,
      code: 'ddl_no_tables',
      message: 'The DDL defines no tables (no CREATE TABLE statement was found)',
    };
  }
  options.beforeDocument?.(builder);
  const document = builder.toDocument();
  return {
    ok: true,
    document,
    skipped: builder.skipped,
    warnings: builder.warnings,
    warnings_total: builder.warningsTotal,
  };
}
