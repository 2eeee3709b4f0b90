// Worker-thread entry of the conversion pool: converts DDL scripts one at a time for as long as the pool
// keeps it. Loaded as compiled JS (dist/convert-worker.js) by conversion-pool.ts, so a runaway parse can be
// terminated and its memory capped. Each dialect's parser is loaded on first use. With `warmUp` (a list of
// dialects), it first converts small samples of those dialects: their parsers are loaded and, for SQL
// Server, ANTLR's prediction caches are filled before the first job (a cold T-SQL parse costs several times
// a warm one), and then says `ready`.
//
// SQL Server's parser (@dbml/core's T-SQL reader, ~100MB once loaded) always runs in a thread of its own (this file, role
// `unit-parser`), started on the first SQL Server job and, unless SQL Server is warmed up, closed after
// `sqlsrvIdleMs` without work, so an importer that imports SQL Server now and then does not keep that
// memory between imports.
//
// With `parseThreads` > 1 it also keeps that many minus one helper threads (this same file, role
// `unit-parser`) and spreads the parsing over them and itself: a SQL Server script's per-table units, a
// MySQL script's statements (the slowest steps of those imports; PostgreSQL's parser is fast enough). A
// helper that dies makes the job a crash (redelivered), never a failed import.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { DiagramDocument } from '@dss/schema';
import { convertDbml } from '../dbml';
import { convertDdl } from '../index';
import { parseMysqlStatements, type StatementParse } from '../mysql';
import type { ConvertResult, DdlDriver, SourceFormat } from '../result';
import { parseSqlsrvUnits, type UnitParse } from '../sqlsrv';
import { YOUNG_GENERATION_MB } from './limits';
import type { Conversion } from './run-conversion';
import { WARM_UP_SAMPLES } from './warm-up-samples';

export interface ConversionRequest {
  id: number;
  driver: DdlDriver;
  ddl: string;
  /** `sql` when absent. */
  format?: SourceFormat;
}

export interface ConvertWorkerData {
  role?: 'converter' | 'unit-parser';
  /** Converter: the dialects to warm up before the first job. Unit parser: the dialects it warms. */
  warmUp: DdlDriver[];
  parseThreads?: number;
  maxOldGenerationSizeMb?: number;
  /**
   * Converter: SQL Server parsing runs in a thread of its own (its parser holds ~100MB once loaded), closed
   * after this long without work so the memory goes back (0: kept). Kept when SQL Server is warmed up.
   */
  sqlsrvIdleMs?: number;
  /** Converter: the layout's last step (ConversionPoolOptions.finishLayout). */
  finishLayout?: LayoutFinish;
}

/** A function from document to document, named by the built module that exports it and its name there. */
export interface LayoutFinish {
  module: string;
  name: string;
}

type ParseKind = 'sqlsrv' | 'mysql';
type ParseAnswer = UnitParse | StatementParse;
const PARSERS: Record<ParseKind, (texts: string[]) => ParseAnswer[]> = {
  sqlsrv: parseSqlsrvUnits,
  mysql: parseMysqlStatements,
};

/** Below this many characters of statements, spreading them costs more than it saves. */
const SPREAD_MIN_CHARS = 20_000;

const port = parentPort!;
const data = workerData as ConvertWorkerData;

function runUnitParser(): void {
  const warmUp = async () => {
    for (const [driver, ddl] of WARM_UP_SAMPLES)
      if (driver !== 'pgsql' && data.warmUp.includes(driver)) await convertDdl(driver, ddl);
  };
  const ready = data.warmUp.length > 0 ? warmUp() : Promise.resolve();
  port.on('message', (request: { id: number; kind: ParseKind; texts: string[] }) => {
    void ready.then(() =>
      port.postMessage({ id: request.id, results: PARSERS[request.kind](request.texts) }),
    );
  });
}

class UnitParserThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<
    number,
    { resolve: (r: ParseAnswer[]) => void; reject: (e: Error) => void }
  >();

  /** `idleMs` > 0: the thread is closed after that long without work, and started again when needed. */
  constructor(
    private readonly warmUp: DdlDriver[],
    private readonly idleMs = 0,
  ) {}

  parse(kind: ParseKind, texts: string[]): Promise<ParseAnswer[]> {
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, kind, texts });
    });
  }

  start(): Worker {
    const worker = new Worker(__filename, {
      workerData: { role: 'unit-parser', warmUp: this.warmUp } satisfies ConvertWorkerData,
      resourceLimits: {
        maxOldGenerationSizeMb: data.maxOldGenerationSizeMb ?? 1024,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
    });
    this.worker = worker;
    worker.on('message', (message: { id: number; results: ParseAnswer[] }) => {
      this.pending.get(message.id)?.resolve(message.results);
      this.pending.delete(message.id);
      if (this.pending.size === 0 && this.idleMs > 0) {
        clearTimeout(this.idleTimer);
        this.idleTimer = setTimeout(() => this.close(), this.idleMs);
        this.idleTimer.unref();
      }
    });
    const died = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.once('error', died);
    worker.once('exit', (code) => died(new Error(`unit parser thread exited with code ${code}`)));
    worker.unref();
    return worker;
  }

  /** Closes an idle thread (its parsers' memory goes with it). */
  private close(): void {
    const worker = this.worker;
    if (!worker || this.pending.size > 0) return;
    this.worker = null;
    void worker.terminate();
  }
}

function runConverter(): void {
  const helpers = Array.from(
    { length: Math.max(0, (data.parseThreads ?? 1) - 1) },
    () => new UnitParserThread(data.warmUp),
  );
  // SQL Server's parser lives in a thread of its own, started on the first SQL Server job (or the warm-up)
  // and closed when idle, unless SQL Server is warmed up (then it is meant to stay ready).
  const warmSqlsrv = data.warmUp.includes('sqlsrv');
  const sqlsrvThread = new UnitParserThread(
    warmSqlsrv ? ['sqlsrv'] : [],
    warmSqlsrv ? 0 : (data.sqlsrvIdleMs ?? 0),
  );
  let helperFailure: Error | null = null;
  const failed = <T>(error: Error, slice: string[]): T[] => {
    // The job is reported as a crash; these placeholders are never used.
    helperFailure = error;
    return slice.map(
      () => ({ ok: false, offset: null, line: 1, column: 0, message: '', located: true }) as unknown as T,
    );
  };

  /** Contiguous slices of about equal size: the first for this thread, one per helper; answers in order. */
  const spread = async <T extends ParseAnswer>(kind: ParseKind, texts: string[]): Promise<T[]> => {
    // This thread's share: in place for MySQL, in the SQL Server thread for SQL Server.
    const parse = (slice: string[]): Promise<T[]> | T[] =>
      kind === 'sqlsrv'
        ? sqlsrvThread.parse(kind, slice).then(
            (answers) => answers as T[],
            (error: Error) => failed<T>(error, slice),
          )
        : (PARSERS[kind] as (texts: string[]) => T[])(slice);
    const total = texts.reduce((sum, text) => sum + text.length, 0);
    if (helpers.length === 0 || total < SPREAD_MIN_CHARS) return parse(texts);
    const share = total / (helpers.length + 1);
    const slices: string[][] = [[]];
    let size = 0;
    for (const text of texts) {
      if (size >= share * slices.length && slices.length < helpers.length + 1) slices.push([]);
      (slices[slices.length - 1] as string[]).push(text);
      size += text.length;
    }
    const others = slices.slice(1).map((slice, index) =>
      (helpers[index] as UnitParserThread).parse(kind, slice).then(
        (answers) => answers as T[],
        (error: Error) => failed<T>(error, slice),
      ),
    );
    const own = await parse(slices[0] as string[]);
    return [own, ...(await Promise.all(others))].flat();
  };
  const options = {
    parseSqlsrvUnits: (texts: string[]) => spread<UnitParse>('sqlsrv', texts),
    parseMysqlStatements: (texts: string[]) => spread<StatementParse>('mysql', texts),
  };

  const warmUp = async () => {
    for (const helper of helpers) helper.start();
    for (const [driver, ddl] of WARM_UP_SAMPLES)
      if (data.warmUp.includes(driver)) await convertDdl(driver, ddl, options);
  };
  const ready = data.warmUp.length > 0 ? warmUp() : Promise.resolve();
  void ready.then(() => port.postMessage({ ready: true }));

  const finish = layoutFinish(data.finishLayout);
  port.on('message', (request: ConversionRequest) => {
    helperFailure = null;
    void ready
      .then(() =>
        (request.format === 'dbml' ? convertDbml : convertDdl)(request.driver, request.ddl, options),
      )
      .then((result) => (result.ok && finish ? { ...result, document: finish(result.document) } : result))
      .then(
        (result) => {
          const failure = helperFailure as Error | null;
          if (failure) port.postMessage({ id: request.id, crash: failure.message });
          else port.postMessage({ id: request.id, result: asConversion(result) });
        },
        (error: unknown) =>
          port.postMessage({ id: request.id, crash: error instanceof Error ? error.message : String(error) }),
      );
  });
}

/** The function that finishes each document's layout, loaded once (a module that fails to load fails the worker). */
function layoutFinish(
  named: ConvertWorkerData['finishLayout'],
): ((document: DiagramDocument) => DiagramDocument) | null {
  if (named === undefined) return null;
  const finish: unknown = require(named.module)[named.name];
  if (typeof finish !== 'function') throw new Error(`${named.module} exports no function ${named.name}`);
  return finish as (document: DiagramDocument) => DiagramDocument;
}

/**
 * The document leaves the thread as JSON text: the text CompleteImport sends anyway, written here rather
 * than on the caller's main thread, and one string to copy instead of a cloned object graph.
 */
function asConversion(result: ConvertResult): Conversion {
  if (!result.ok) return result;
  const { document, ...rest } = result;
  return { ...rest, document_json: JSON.stringify(document) };
}

if (data.role === 'unit-parser') runUnitParser();
else runConverter();
