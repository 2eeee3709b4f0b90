// Worker-thread entry: converts one DDL script and posts the result back. Loaded as compiled JS
// (dist/convert-worker.js) by run-conversion.ts, so a runaway parse can be terminated and its memory capped.
import { parentPort, workerData } from 'node:worker_threads';
import { convertDdl } from '@dss/ddl';

const { driver, ddl } = workerData as { driver: Parameters<typeof convertDdl>[0]; ddl: string };
convertDdl(driver, ddl).then(
  (result) => parentPort!.postMessage({ result }),
  (error: unknown) =>
    parentPort!.postMessage({ crash: error instanceof Error ? error.message : String(error) }),
);
