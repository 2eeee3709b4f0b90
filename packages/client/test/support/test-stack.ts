// The embedded system on free ports plus what the client and MCP tests need around it: tokens for a
// team member of a given role (made over the accounts gRPC API, as the operator CLI does) and a
// reviewer's apply or decline of a proposal (the web editor's part, which no REST endpoint offers).
import { randomUUID } from 'node:crypto';
import { createServiceClient } from '@dss/platform';
import { startTestSystem, type TestSystem } from '@dss/system';

export interface MemberOptions {
  role?: 'owner' | 'editor' | 'viewer';
  write?: boolean;
  plan?: string;
  /** Reuse a team (members of one team see each other's diagrams); default a fresh one. */
  team?: string;
}

export interface TestStack {
  system: TestSystem;
  apiUrl: string;
  appUrl: string;
  /** A user of the given role in a team, and a personal access token for them. */
  member(options?: MemberOptions): Promise<{ token: string; team: string; email: string }>;
  review(proposalUuid: string, reviewerEmail: string, action: 'apply' | 'decline'): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestStack(
  env: Record<string, string> = {},
  options: { withoutImporter?: boolean } = {},
): Promise<TestStack> {
  const system = await startTestSystem(env, options);
  const accounts = createServiceClient('Accounts', system.grpc.accounts);
  const proposals = createServiceClient('Proposals', system.grpc.proposals);
  const teams = new Set<string>();
  return {
    system,
    apiUrl: system.apiUrl,
    appUrl: system.appUrl,
    async member(memberOptions = {}) {
      const team = memberOptions.team ?? `team-${randomUUID().slice(0, 8)}`;
      if (!teams.has(team)) {
        await accounts.CreateTeam({ slug: team, name: team, plan: memberOptions.plan ?? 'team' });
        teams.add(team);
      }
      const email = `${randomUUID().slice(0, 8)}@${team}.test`;
      await accounts.CreateUser({ email, name: email, password: '' });
      await accounts.AddMember({ team_slug: team, user_email: email, role: memberOptions.role ?? 'editor' });
      const issued = await accounts.IssueToken({
        team_slug: team,
        user_email: email,
        name: 'test',
        write: memberOptions.write ?? false,
        expires_in: '',
        expires_at: '',
      });
      return { token: issued.token, team, email };
    },
    async review(proposalUuid, reviewerEmail, action) {
      const reviewer = await accounts.GetUser({ email: reviewerEmail, id: '' });
      const request = { uuid: proposalUuid, user_id: reviewer.id, team_id: '', reason: '' };
      if (action === 'apply') await proposals.ApplyProposal(request);
      else await proposals.DeclineProposal(request);
    },
    async stop() {
      accounts.close();
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
