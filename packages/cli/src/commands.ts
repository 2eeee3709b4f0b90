// The commands of the operator CLI, exactly as ARCHITECTURE.md fixes them.
import { readFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import type { CliIo } from './cli';
import { UsageError } from '@dss/schema-cli';
import type { Clients } from './clients';
import { registerDiagramCommands } from './diagram-commands';
import { registerWebhookCommands } from './webhook-commands';
import { registerAuditCommands } from './audit-commands';

interface Context {
  clients: () => Clients;
  io: CliIo;
}

type Printable = object;

export function registerCommands(program: Command, context: Context): void {
  const leaf = (parent: Command, name: string, description: string) =>
    parent.command(name).description(description).option('--json', 'print the result as JSON');

  const print = (options: { json?: boolean }, record: Printable, line: string) => {
    context.io.stdout(options.json ? `${JSON.stringify(plainFields(record), null, 2)}\n` : `${line}\n`);
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

  leaf(team, 'list', 'list the live teams').action(async (options) => {
    const { teams } = await accounts().ListTeams({});
    const lines = teams.map((t) => `${t.slug}  ${t.plan}  ${t.name}`);
    print(options, { teams }, lines.join('\n') || 'no teams');
  });
  leaf(team, 'show', 'show a team, its plan and its members')
    .requiredOption('--slug <slug>', 'the team')
    .action(async (options) => {
      const shown = await accounts().GetTeam({ slug: options.slug, id: '' });
      const { memberships } = await accounts().ListTeamMembers({ team_slug: shown.slug });
      const members = memberships.map((m) => ({ email: m.user_email, role: m.role, since: m.created_at }));
      const lines = [
        `${shown.slug} (${shown.name}) on plan ${shown.plan}${shown.api_access ? '' : ' (no API access)'}`,
        `created ${shown.created_at}; ${members.length} member${members.length === 1 ? '' : 's'}`,
        ...members.map((m) => `  ${m.email}  ${m.role}`),
      ];
      print(options, { ...shown, members }, lines.join('\n'));
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

  leaf(user, 'list', 'list users, or the members of one team')
    .option('--team <slug>', 'only the members of this team')
    .action(async (options) => {
      const { users } = await accounts().ListUsers({ team_slug: options.team ?? '' });
      const lines = users.map((u) => `${u.email}  ${u.name}  ${u.id}`);
      print(options, { users }, lines.join('\n') || 'no users');
    });
  leaf(user, 'set-password', "set a user's web password (read from standard input or --password-file)")
    .requiredOption('--email <email>', 'the user')
    .option('--password-file <path>', 'a file whose first line is the password')
    .action(async (options) => {
      const password = await readSecret(context.io, options.passwordFile);
      const updated = await accounts().SetPassword({ email: options.email, password });
      print(options, updated, `password set for ${updated.email}; their web sessions are ended`);
    });
  leaf(user, 'delete', 'delete a user: memberships and sessions end, every token stops working at once')
    .requiredOption('--email <email>', 'the user')
    .action(async (options) => {
      const deleted = await accounts().DeleteUser({ email: options.email });
      print(options, deleted, `deleted user ${deleted.email}`);
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

  leaf(member, 'invite', 'invite an email address to a team; prints the single-use link (valid 7 days)')
    .requiredOption('--team <slug>', 'the team')
    .requiredOption('--email <email>', 'the address to invite')
    .addOption(
      new Option('--role <role>', 'the role on joining')
        .choices(['owner', 'editor', 'viewer'])
        .makeOptionMandatory(),
    )
    .action(async (options) => {
      const created = await accounts().CreateInvitation({
        team_slug: options.team,
        email: options.email,
        role: options.role,
        invited_by_user_id: '',
      });
      // The web app's address ({app_url}), as the web app itself builds its links.
      const link = new URL(
        `/invitations/${created.secret}`,
        process.env.DSS_APP_URL || 'http://localhost:8081',
      );
      const invitation = created.invitation!;
      print(
        options,
        { ...invitation, link: link.toString() },
        `${link}\n${invitation.email} may join team ${invitation.team_slug} as ${invitation.role} until ${invitation.expires_at}`,
      );
    });
  leaf(member, 'list', 'list the members of a team')
    .requiredOption('--team <slug>', 'the team')
    .action(async (options) => {
      const { memberships } = await accounts().ListTeamMembers({ team_slug: options.team });
      const lines = memberships.map((m) => `${m.user_email}  ${m.role}`);
      print(options, { memberships }, lines.join('\n') || 'no members');
    });
  leaf(member, 'set-role', "change an existing member's role")
    .requiredOption('--team <slug>', 'the team')
    .requiredOption('--email <email>', 'the member')
    .addOption(
      new Option('--role <role>', 'the new role')
        .choices(['owner', 'editor', 'viewer'])
        .makeOptionMandatory(),
    )
    .action(async (options) => {
      const changed = await accounts().SetMemberRole({
        team_slug: options.team,
        user_email: options.email,
        role: options.role,
      });
      print(options, changed, `${changed.user_email} is ${changed.role} of team ${changed.team_slug}`);
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
  leaf(token, 'list', "list a team's tokens, or one user's (never the secrets)")
    .requiredOption('--team <slug>', 'the team')
    .option('--email <email>', 'only this user’s tokens')
    .action(async (options) => {
      const { tokens } = await accounts().ListTokens({
        team_slug: options.team,
        user_email: options.email ?? '',
      });
      const lines = tokens.map(
        (t) =>
          `${t.id}  ${t.user_email}  ${t.write ? 'write' : 'read '}  expires ${t.expires_at}${t.revoked_at ? '  revoked' : ''}  ${t.name}`,
      );
      print(options, { tokens }, lines.join('\n') || 'no tokens');
    });

  const proposal = program.command('proposal').description('review proposals');
  registerDiagramCommands(program, { clients: context.clients, leaf, print });
  registerWebhookCommands(program, { clients: context.clients, leaf, print });
  registerAuditCommands(program, { clients: context.clients, stdout: context.io.stdout });

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
  registerConversationCommands(proposal, { leaf, print, reviewAs, clients: context.clients });
}

interface ConversationHelpers {
  leaf: (parent: Command, name: string, description: string) => Command;
  print: (options: { json?: boolean }, record: Printable, line: string) => void;
  reviewAs: (email: string) => Promise<{ id: string }>;
  clients: () => Clients;
}

/** `proposal comment|comments|request-changes`: the review conversation, as the person named by --email. */
function registerConversationCommands(
  proposal: Command,
  { leaf, print, reviewAs, clients }: ConversationHelpers,
) {
  const person = (id: string) =>
    ({ principal: null, user_id: id }) as unknown as { principal: never; user_id: string };
  leaf(proposal, 'comment', 'comment on a proposal (a new thread, or a reply with --reply-to)')
    .argument('<id>', 'the proposal uuid')
    .requiredOption('--email <email>', 'who comments: a member of the proposal’s team')
    .requiredOption('--body <text>', 'plain text, at most 4,000 characters')
    .option('--table <name>', 'anchor the thread to a table the proposal changes')
    .option('--column <name>', 'and to one of its columns (with --table)')
    .option('--reply-to <comment>', 'the id of a comment of the thread to answer')
    .action(async (id: string, options) => {
      const author = await reviewAs(options.email);
      const written = await clients().proposals.AddComment({
        actor: person(author.id),
        uuid: id,
        body: options.body,
        anchor: options.table
          ? { table: options.table, ...(options.column ? { column: options.column } : {}) }
          : null,
        reply_to: options.replyTo ?? '',
      } as Parameters<Clients['proposals']['AddComment']>[0]);
      print(
        options,
        written,
        `comment ${written.id} on proposal ${written.proposal_uuid} (revision ${written.revision})`,
      );
    });
  leaf(proposal, 'comments', 'list the comment threads of a proposal')
    .argument('<id>', 'the proposal uuid')
    .requiredOption('--email <email>', 'who reads: a member of the proposal’s team')
    .action(async (id: string, options) => {
      const reader = await reviewAs(options.email);
      const { comments } = await clients().proposals.ListComments({ actor: person(reader.id), uuid: id });
      const lines = comments.map((comment) => {
        const anchor = comment.anchor?.table
          ? ` ${comment.anchor.table}${comment.anchor.column ? `.${comment.anchor.column}` : ''}`
          : '';
        const place = comment.reply_to
          ? `  ↳ reply to ${comment.reply_to}`
          : `${anchor}${comment.resolved_at ? ' [resolved]' : ''}`;
        return `${comment.id}  r${comment.revision}  ${comment.author_kind}  ${comment.kind}${place}\n    ${JSON.stringify(comment.body)}`;
      });
      print(options, { comments }, lines.join('\n') || 'no comments');
    });
  leaf(
    proposal,
    'request-changes',
    'ask for changes: the proposal stays pending and the message starts a thread',
  )
    .argument('<id>', 'the proposal uuid')
    .requiredOption('--email <email>', 'the reviewer, who must be allowed to edit the diagram')
    .requiredOption('--message <text>', 'what to change, at most 4,000 characters')
    .action(async (id: string, options) => {
      const reviewer = await reviewAs(options.email);
      const requested = await clients().proposals.RequestChanges({
        uuid: id,
        user_id: reviewer.id,
        message: options.message,
      });
      print(options, requested, `proposal ${requested.uuid} is ${requested.state}; changes requested`);
    });
}

/**
 * The record as plain fields: proto3 `optional` fields come back from the gRPC loader with a synthetic
 * oneof marker (`_last_used_at: "last_used_at"`), which is an artefact of the wire format, not data.
 */
export function plainFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainFields);
  if (value === null || typeof value !== 'object') return value;
  const plain: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (key.startsWith('_')) continue;
    plain[key] = plainFields(field);
  }
  return plain;
}

/** A secret from a file's first line, or from standard input; never from the command line. */
async function readSecret(io: CliIo, file: string | undefined): Promise<string> {
  let text: string;
  if (file) {
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --password-file ${file}: ${(error as NodeJS.ErrnoException).code}`);
    }
  } else if (io.readStdin) {
    text = await io.readStdin();
  } else {
    throw new UsageError('give the password on standard input or with --password-file');
  }
  const password = text.split(/\r?\n/)[0] ?? '';
  if (!password) throw new UsageError('the password is empty');
  return password;
}
