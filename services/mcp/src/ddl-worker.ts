// Worker-thread entry of the DDL converter (ddl-converter.ts): converts one script at a time with the
// importer's converter, off the server's main thread and under the heap cap its parent gives it. Loaded as
// compiled JS (dist/ddl-worker.js). Says `ready` once the parsers are loaded, so the time limit counts the
// conversion only.
import { parentPort } from 'node:worker_threads';
import { convertDdl, type DdlDriver } from '@dss/ddl';

export interface DdlWorkerRequest {
  id: number;
  driver: DdlDriver;
  ddl: string;
}

const port = parentPort!;

port.on('message', (request: DdlWorkerRequest) => {
  convertDdl(request.driver, request.ddl).then(
    (result) => port.postMessage({ id: request.id, result }),
    (error: unknown) =>
      port.postMessage({ id: request.id, crash: error instanceof Error ? error.message : String(error) }),
  );
});
port.postMessage({ ready: true });
