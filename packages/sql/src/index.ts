// Schema as code: a diagram written out as SQL (CREATE script, migration between two versions), DBML and
// Mermaid. Pure functions of diagram documents; no I/O.
export { type ForeignKey, foreignKeys, tableKeys } from './constraints';
export { createScript, type SqlScript } from './create-script';
export { DIALECTS, type Dialect, enumTypeName, splitTableName } from './dialect';
export {
  type ConversionWarning,
  conversionNote,
  DRIVER_TITLES,
  type DriverConversion,
  documentForDriver,
} from './driver-conversion';
export {
  MIGRATION_WARNING_CODES,
  type Migration,
  type MigrationWarning,
  type MigrationWarningCode,
  migrationFile,
  migrationScript,
  STATEMENT_SAFETY,
  type StatementSafety,
} from './migration';
export { dbmlScript } from './dbml';
export { mermaidScript } from './mermaid';
