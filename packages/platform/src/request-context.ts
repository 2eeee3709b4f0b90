// The request a piece of code is working for, carried through async calls without passing it around,
// so log lines, outgoing gRPC calls and audit entries pick up the request id, the client's address and
// who is acting wherever they happen. The edge that knows them (gateway, web app) fills them in; gRPC
// carries them to the services in metadata (grpc/client.ts, grpc/server.ts).
import { AsyncLocalStorage } from 'node:async_hooks';

/** Who performs an action: a signed-in user, a personal access token (of `user_id`), or the system itself. */
export interface RequestActor {
  kind: 'user' | 'token' | 'system';
  /** The user id (kind user) or the token id (kind token); empty for the system. */
  id: string;
  /** The user behind a token. */
  user_id?: string;
}

export interface RequestContext {
  requestId: string;
  /** The client's IP address as the edge saw it. */
  clientIp?: string;
  actor?: RequestActor;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Records who acts for the rest of the current request (once the edge has authenticated them). */
export function setRequestActor(actor: RequestActor): void {
  const context = storage.getStore();
  if (context) context.actor = actor;
}
