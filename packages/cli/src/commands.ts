// The commands of the operator CLI, exactly as ARCHITECTURE.md fixes them.
import { type Command, Option } from 'commander';
import type { CliIo } from './cli';
import { UsageError } from './cli';
import type { Clients } from './clients';

interface Context {
  clients: () => Clients;
  io: CliIo;
}

type Printable = object;

export function registerCommands(program: Command, context: Context): void {
  const leaf = (parent: Command, name: string, description: string) =>
    parent.command(name).description(description).option('--json', 'print the result as JSON');

  const print = (options: { json?: boolean }, record: Printable, line: string) => {
    context.io.stdout(options.json ? `${JSON.stringify(record, null, 2)}\n` : `${line}\n`);
  };
  const accounts = () => context.clients().accounts;

  const team = program.command('team').description('teams');
  leaf(team, 'create', 'create a team')
    .requiredOption('--slug <slug>', 'URL-safe identifier')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--plan <plan>', 'free, starter, team or enterprise')
    .action(async (options) => {
      const created = await accounts().CreateTeam({
        slug: options.slug,
        name: options.name,
        plan: options.plan,
      });
      print(options, created, `created team ${created.slug} (${created.name}) on plan ${created.plan}`);
    });
  leaf(team, 'delete', 'delete a team; its tokens stop working')
    .requiredOption('--slug <slug>', 'the team')
    .action(async (options) => {
      const deleted = await accounts().DeleteTeam({ slug: options.slug });
      print(options, deleted, `deleted team ${deleted.slug}`);
    });

  const plan = program.command('plan').description('plans');
  leaf(plan, 'set', "change a team's plan")
    .requiredOption('--team <slug>', 'the team')
    .requiredOption('--plan <plan>', 'free, starter, team or enterprise')
    .action(async (options) => {
      const updated = await accounts().SetPlan({ team_slug: options.team, plan: options.plan });
      print(options, updated, `team ${updated.slug} is now on plan ${updated.plan}`);
    });

  const user = program.command('user').description('users');
  leaf(user, 'create', 'create a user')
    .requiredOption('--email <email>', 'email address (sign-in name)')
    .requiredOption('--name <name>', 'display name')
    .option('--password <password>', 'password for the web app (at least 8 characters)')
    .action(async (options) => {
      const created = await accounts().CreateUser({
        email: options.email,
        name: options.name,
        password: options.password ?? '',
      });
      print(options, created, `created user ${created.email} (${created.id})`);
    });

  const member = program.command('member').description('team memberships');
  leaf(member, 'add', 'add a user to a team, or change their role')
    .requiredOption('--team <slug>', 'the team')
    .requiredOption('--email <email>', 'the user')
    .addOption(
      new Option('--role <role>', 'the role').choices(['owner', 'editor', 'viewer']).makeOptionMandatory(),
    )
    .action(async (options) => {
      const added = await accounts().AddMember({
        team_slug: options.team,
        user_email: options.email,
        role: options.role,
      });
      print(options, added, `${added.user_email} is ${added.role} of team ${added.team_slug}`);
    });
  leaf(member, 'remove', 'remove a user from a team; their tokens for it stop working')
    .requiredOption('--team <slug>', 'the team')
    .requiredOption('--email <email>', 'the user')
    .action(async (options) => {
      const removed = await accounts().RemoveMember({ team_slug: options.team, user_email: options.email });
      print(options, removed, `removed ${removed.user_email} from team ${removed.team_slug}`);
    });

  const token = program.command('token').description('personal access tokens');
  leaf(token, 'create', 'create a personal access token; the secret is shown once')
    .requiredOption('--team <slug>', 'the team the token is for')
    .requiredOption('--email <email>', 'the user the token acts as')
    .option('--write', 'allow creating diagrams and proposing changes', false)
    .addOption(new Option('--expires <choice>', 'lifetime').choices(['30d', '90d', '1y', '2y']))
    .option('--expires-at <iso>', 'explicit expiry (ISO 8601 timestamp)')
    .option('--name <name>', 'a label for the token', 'CLI token')
    .action(async (options) => {
      if (options.expires && options.expiresAt)
        throw new UsageError('use either --expires or --expires-at, not both');
      const issued = await accounts().IssueToken({
        team_slug: options.team,
        user_email: options.email,
        name: options.name,
        write: Boolean(options.write),
        expires_in: options.expires ?? '',
        expires_at: options.expiresAt ?? '',
      });
      const record = { ...issued.record, token: issued.token };
      print(options, record, issued.token);
    });
  leaf(token, 'revoke', 'revoke a token at once')
    .requiredOption('--id <id>', 'the token id')
    .action(async (options) => {
      const revoked = await accounts().RevokeToken({ id: options.id, user_id: '' });
      print(options, revoked, `revoked token ${revoked.id}`);
    });
  leaf(token, 'list', "list a user's tokens in a team (never the secrets)")
    .requiredOption('--team <slug>', 'the team')
    .requiredOption('--email <email>', 'the user')
    .action(async (options) => {
      const { tokens } = await accounts().ListTokens({ team_slug: options.team, user_email: options.email });
      const lines = tokens.map(
        (t) =>
          `${t.id}  ${t.write ? 'write' : 'read '}  expires ${t.expires_at}${t.revoked_at ? '  revoked' : ''}  ${t.name}`,
      );
      print(options, { tokens }, lines.join('\n') || 'no tokens');
    });

  const proposal = program.command('proposal').description('review proposals');
  const review = (name: 'apply' | 'decline' | 'reopen', description: string) =>
    leaf(proposal, name, description)
      .argument('<id>', 'the proposal uuid')
      .requiredOption('--email <email>', 'the reviewer, who must be allowed to edit the diagram');
  const reviewAs = async (email: string) => accounts().GetUser({ email, id: '' });
  review('apply', 'apply a pending proposal to its diagram').action(async (id: string, options) => {
    const reviewer = await reviewAs(options.email);
    const applied = await context.clients().proposals.ApplyProposal({ uuid: id, user_id: reviewer.id });
    print(options, applied, `proposal ${applied.uuid} is ${applied.state}`);
  });
  review('decline', 'decline a pending proposal')
    .option('--reason <text>', 'why (at most 500 characters)')
    .action(async (id: string, options) => {
      const reviewer = await reviewAs(options.email);
      const declined = await context.clients().proposals.DeclineProposal({
        uuid: id,
        user_id: reviewer.id,
        reason: options.reason ?? '',
      });
      print(options, declined, `proposal ${declined.uuid} is ${declined.state}`);
    });
  review('reopen', 'reopen an expired proposal for another 30 days').action(async (id: string, options) => {
    const reviewer = await reviewAs(options.email);
    const reopened = await context.clients().proposals.ReopenProposal({ uuid: id, user_id: reviewer.id });
    print(options, reopened, `proposal ${reopened.uuid} is ${reopened.state} until ${reopened.expires_at}`);
  });
}
