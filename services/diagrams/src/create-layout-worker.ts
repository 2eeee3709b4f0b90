// The entry of the create layout thread (create-layout.ts): answers each large create's layout.
import { serveRequests } from '@dss/platform/worker-thread';
import { layOutCreate } from './lay-out-create';

serveRequests(layOutCreate);
