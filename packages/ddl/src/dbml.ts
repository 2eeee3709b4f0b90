// DBML in: @dbml/core reads the DBML and writes it as DDL of the diagram's driver (its exporter maps DBML
// types, settings, indexes, enums, notes and references to CREATE statements), and that DDL is imported by
// the same readers, type catalog and limits as any DDL. A DBML error is `ddl_syntax_error` at its DBML line
// and column; positions in later warnings refer to the DDL written from the DBML, so they are given as
// line 1, column 1 with the DDL statement they are about.
import { dbmlCoreLite } from './dbml-core-lite';
import { type ConvertOptions, convertDdl } from './index';
import type { ConvertResult, DdlDriver } from './result';

const EXPORT_FORMATS: Record<DdlDriver, 'postgres' | 'mysql' | 'mssql'> = {
  pgsql: 'postgres',
  mysql: 'mysql',
  sqlsrv: 'mssql',
};

interface DbmlDiagnostic {
  message?: string;
  location?: { start?: { line?: number; column?: number } };
}

/** The first diagnostic of a @dbml/core error (it throws `{diags: [...]}` or an Error). */
function firstDiagnostic(error: unknown): { message: string; line: number; column: number } {
  const diags = (error as { diags?: DbmlDiagnostic[] } | null)?.diags;
  const first = Array.isArray(diags) ? diags[0] : undefined;
  if (first)
    return {
      message: first.message ?? 'the DBML could not be read',
      line: first.location?.start?.line ?? 1,
      column: first.location?.start?.column ?? 1,
    };
  return {
    message: error instanceof Error ? error.message : 'the DBML could not be read',
    line: 1,
    column: 1,
  };
}

export async function convertDbml(
  driver: DdlDriver,
  text: string,
  options: ConvertOptions = {},
): Promise<ConvertResult> {
  let sql: string;
  try {
    sql = dbmlCoreLite().exporter.export(text.replace(/^\uFEFF/, ''), EXPORT_FORMATS[driver]);
  } catch (error) {
    const { message, line, column } = firstDiagnostic(error);
    return { ok: false, code: 'ddl_syntax_error', message: `DBML: ${message}`, line, column };
  }
  const result = await convertDdl(driver, sql, options);
  if (!result.ok)
    return { ...result, message: `${result.message} (in the DDL written from the DBML)`, line: 1, column: 1 };
  return { ...result, warnings: result.warnings.map((warning) => ({ ...warning, line: 1, column: 1 })) };
}
