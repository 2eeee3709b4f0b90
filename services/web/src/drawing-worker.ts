// Worker-thread entry that draws a diagram's full document (the body of diagrams.GetFullDocument, as a page
// reads it) apart from the web app's event loop: a 300-table drawing takes one to two seconds of CPU, which
// on the event loop would hold every other request of the process for as long. A warm thread
// (drawing-thread.ts) first draws generated diagrams, whose drawings are thrown away, so that the router's
// code is compiled before the first version it is asked for; requests sent meanwhile wait in its port.
import { workerData } from 'node:worker_threads';
import { serveRequests } from '@dss/platform/worker-thread';
import { generateDiagram } from '@dss/schema/dist/generated/generate-diagram';
import type { DrawingThreadData } from './drawing-thread';
import { documentOfBody, drawUntitled, drawVersion, type VersionDrawings } from './drawings';

const warmUp = (workerData as DrawingThreadData | null)?.warmUp;
for (let seed = 1; warmUp && seed <= warmUp.drawings; seed++)
  drawUntitled(generateDiagram({ tables: warmUp.tables, columnsPerTable: 12, seed }));

// What the read-only views show first (with copies of busy tables, kept under pageKey's key), and for a
// document with busy tables also the editor's drawing (every table once, under the content's key).
serveRequests((body: string): VersionDrawings => drawVersion(documentOfBody(body)));
