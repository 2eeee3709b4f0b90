// Worker-thread entry that draws a diagram's full document (the body of diagrams.GetFullDocument, as a page
// reads it) apart from the web app's event loop: a 300-table drawing takes one to two seconds of CPU, which
// on the event loop would hold every other request of the process for as long.
import { serveRequests } from '@dss/platform/worker-thread';
import { documentOfBody, drawUntitled, type UntitledDrawing } from './drawings';

serveRequests((body: string): UntitledDrawing => drawUntitled(documentOfBody(body)));
