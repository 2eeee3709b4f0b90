// Teams, people and their tokens for tests, made over the accounts gRPC API as the operator CLI does. One
// helper for every test that needs "a member of this team with this role and a token", so the tests of
// each service make people the same way.
import { randomUUID } from 'node:crypto';
import { createServiceClient, type ServiceClient } from '@dss/platform';

export type TeamRole = 'owner' | 'editor' | 'viewer';

export interface TestMemberOptions {
  /** The team's slug; created (with `plan`) on first use. */
  team: string;
  /** Plan of the team when this call creates it; default team. */
  plan?: string;
  /** Default editor. */
  role?: TeamRole;
  /** Whether the token may write; default false (read-only). */
  write?: boolean;
  /** Default the e-mail address. */
  name?: string;
  /** Needed only to sign in to the web app; default none. */
  password?: string;
}

export interface TestMember {
  team: string;
  email: string;
  userId: string;
  /** A personal access token of the member for the team. */
  token: string;
}

export class TestPeople {
  readonly accounts: ServiceClient<'Accounts'>;
  private readonly teams = new Set<string>();

  /** `accountsAddress`: the accounts service's gRPC address (`system.grpc.accounts`). */
  constructor(accountsAddress: string) {
    this.accounts = createServiceClient('Accounts', accountsAddress);
  }

  /** Creates the team named `Team <slug>` unless it exists (tests may ask for one team several times). */
  async team(slug: string, plan = 'team'): Promise<void> {
    if (this.teams.has(slug)) return;
    await this.accounts.CreateTeam({ slug, name: `Team ${slug}`, plan }).catch((error: { code?: string }) => {
      if (error.code !== 'conflict') throw error;
    });
    this.teams.add(slug);
  }

  /** A new user with a unique e-mail, member of the team with the role, and a token of theirs. */
  async member(options: TestMemberOptions): Promise<TestMember> {
    const { team, role = 'editor' } = options;
    await this.team(team, options.plan);
    const email = `${role}-${randomUUID()}@${team}.test`;
    const user = await this.accounts.CreateUser({
      email,
      name: options.name ?? email,
      password: options.password ?? '',
    });
    await this.accounts.AddMember({ team_slug: team, user_email: email, role });
    const issued = await this.accounts.IssueToken({
      team_slug: team,
      user_email: email,
      name: 'test',
      write: options.write ?? false,
    });
    return { team, email, userId: user.id, token: issued.token };
  }

  close(): void {
    this.accounts.close();
  }
}
