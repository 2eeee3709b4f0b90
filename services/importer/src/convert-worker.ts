// Worker-thread entry of the conversion pool: converts DDL scripts one at a time for as long as the pool
// keeps it. Loaded as compiled JS (dist/convert-worker.js) by conversion-pool.ts, so a runaway parse can be
// terminated and its memory capped. With `warmUp`, it first converts small samples of every dialect: the
// parsers are loaded and ANTLR's prediction caches for SQL Server are filled before the first job (a
// cold T-SQL parse costs several times a warm one), and then says `ready`.
import { parentPort, workerData } from 'node:worker_threads';
import { convertDdl, type DdlDriver } from '@dss/ddl';
import { WARM_UP_SAMPLES } from './warm-up-samples';

export interface ConversionRequest {
  id: number;
  driver: DdlDriver;
  ddl: string;
}

const port = parentPort!;

async function warmUp(): Promise<void> {
  for (const [driver, ddl] of WARM_UP_SAMPLES) await convertDdl(driver, ddl);
}

const ready = (workerData as { warmUp?: boolean }).warmUp ? warmUp() : Promise.resolve();
void ready.then(() => port.postMessage({ ready: true }));

port.on('message', (request: ConversionRequest) => {
  void ready
    .then(() => convertDdl(request.driver, request.ddl))
    .then(
      (result) => port.postMessage({ id: request.id, result }),
      (error: unknown) =>
        port.postMessage({ id: request.id, crash: error instanceof Error ? error.message : String(error) }),
    );
});
