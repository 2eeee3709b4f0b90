// Worker-thread entry that draws a diagram's full document (the body of diagrams.GetFullDocument, as a page
// reads it) apart from the web app's event loop: a 300-table drawing takes one to two seconds of CPU, which
// on the event loop would hold every other request of the process for as long.
import { parentPort } from 'node:worker_threads';
import type { DiagramDocument } from '@dss/schema';
import { drawUntitled, type UntitledDrawing } from './drawings';

export interface DrawingRequest {
  id: number;
  /** GetFullDocument's body: `{"data": <document>}`. */
  body: string;
}

export type DrawingAnswer = { id: number; drawing: UntitledDrawing } | { id: number; error: string };

const port = parentPort;
port?.on('message', (request: DrawingRequest) => {
  let answer: DrawingAnswer;
  try {
    const document = (JSON.parse(request.body) as { data: DiagramDocument }).data;
    answer = { id: request.id, drawing: drawUntitled(document) };
  } catch (error) {
    answer = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
