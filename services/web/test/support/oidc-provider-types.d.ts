// The few parts of `oidc-provider` (which ships no types) that the test's provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount(context: unknown, id: string): Promise<Account>;
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
