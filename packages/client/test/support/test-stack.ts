// The embedded system on free ports plus what the client and MCP tests need around it: tokens for a
// team member of a given role (made over the accounts gRPC API, as the operator CLI does) and a
// reviewer's apply or decline of a proposal (the web editor's part, which no REST endpoint offers).
import { randomUUID } from 'node:crypto';
import { createServiceClient } from '@dss/platform';
import {
  startTestSystem,
  type TestMember,
  type TestMemberOptions,
  TestPeople,
  type TestSystem,
} from '@dss/system';

export interface MemberOptions extends Partial<TestMemberOptions> {
  /** Reuse a team (members of one team see each other's diagrams); default a fresh one. */
  team?: string;
}

export interface TestStack {
  system: TestSystem;
  apiUrl: string;
  appUrl: string;
  /** A user of the given role in a team, and a personal access token for them. */
  member(options?: MemberOptions): Promise<TestMember>;
  review(proposalUuid: string, reviewerEmail: string, action: 'apply' | 'decline'): Promise<void>;
  /** A reviewer's "Request changes" with a message (the web app's action). */
  requestChanges(proposalUuid: string, reviewerEmail: string, message: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestStack(
  env: Record<string, string> = {},
  options: { withoutImporter?: boolean } = {},
): Promise<TestStack> {
  const system = await startTestSystem(env, options);
  const people = new TestPeople(system.grpc.accounts);
  const proposals = createServiceClient('Proposals', system.grpc.proposals);
  return {
    system,
    apiUrl: system.apiUrl,
    appUrl: system.appUrl,
    member: ({ team = `team-${randomUUID().slice(0, 8)}`, ...options } = {}) =>
      people.member({ team, ...options }),
    async review(proposalUuid, reviewerEmail, action) {
      const reviewer = await people.accounts.GetUser({ email: reviewerEmail, id: '' });
      const request = { uuid: proposalUuid, user_id: reviewer.id, team_id: '', reason: '' };
      if (action === 'apply') await proposals.ApplyProposal(request);
      else await proposals.DeclineProposal(request);
    },
    async requestChanges(proposalUuid, reviewerEmail, message) {
      const reviewer = await people.accounts.GetUser({ email: reviewerEmail, id: '' });
      await proposals.RequestChanges({ uuid: proposalUuid, user_id: reviewer.id, message });
    },
    async stop() {
      people.close();
      proposals.close();
      await system.stop();
    },
  };
}

/** A small valid patch: two tables and a relationship. */
export function shopPatch(prefix = '') {
  return {
    strategy: 'merge' as const,
    tables: [
      {
        name: `${prefix}customers`,
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true, is_auto_increment: true },
          { name: 'email', type: 'varchar(255)', is_unique_key: true },
        ],
      },
      {
        name: `${prefix}orders`,
        columns: [
          { name: 'id', type: 'bigint', is_primary_key: true },
          { name: 'customer_id', type: 'bigint' },
        ],
      },
    ],
    relationships: [
      {
        type: 'many-to-one' as const,
        source_table: `${prefix}orders`,
        source_column: 'customer_id',
        target_table: `${prefix}customers`,
        target_column: 'id',
      },
    ],
  };
}

export const SHOP_DDL = `
CREATE TABLE customers (id BIGINT PRIMARY KEY AUTO_INCREMENT, email VARCHAR(255) NOT NULL UNIQUE);
CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL,
  FOREIGN KEY (customer_id) REFERENCES customers (id));
`;
