/**
 * Young generation (V8's nursery, `resourceLimits.maxYoungGenerationSizeMb`) of every conversion and parser
 * thread. Parsing makes garbage fast (ANTLR's tokens, contexts and prediction configurations; the MySQL
 * parser's PEG results), and with V8's default young generation a thread's RSS rose tens of MB more during
 * a conversion, for no speed gained. Measured with a one-worker pool converting the generated 199KB
 * scripts (services/importer/bench) four times, the process's RSS peak over its idle RSS, default → 8MB:
 * SQL Server +159 → +133MB, MySQL +129 → +58MB, PostgreSQL +110 → +83MB (a SQL Server parser thread alone:
 * +120 → +85MB); the conversion times the same within the shared machine's noise.
 */
export const YOUNG_GENERATION_MB = 8;
