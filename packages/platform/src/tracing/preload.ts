// Loaded with `node --require @dss/platform/dist/tracing/preload.js` before the service's own code, so
// the instrumented libraries are patched before anything requires them.
import { startTracing } from './index';

startTracing();
