// `diagram rename|duplicate|delete|restore|trash|restore-version`: an operator acts on a team's diagrams as one member of
// that team (`--team`, `--email`), with that member's role: the diagrams service lets owners and editors
// rename, duplicate and delete, and only owners restore. The principal is built the way the web app
// builds a person's (no token), from accounts' team, user and membership records.
import { isServiceError, ServiceError } from '@dss/platform';
import { type Command, InvalidArgumentError } from 'commander';
import type { Clients } from './clients';
import { memberPrincipal } from './member-principal';

interface DiagramCommandsContext {
  clients: () => Clients;
  leaf: (parent: Command, name: string, description: string) => Command;
  print: (options: { json?: boolean }, record: object, line: string) => void;
}

export function registerDiagramCommands(program: Command, context: DiagramCommandsContext): void {
  const { leaf, print } = context;
  const diagram = program.command('diagram').description("a team's diagrams (acting as one of its members)");
  const asMember = (command: Command) =>
    command
      .requiredOption('--team <slug>', 'the team of the diagram')
      .requiredOption('--email <email>', 'the member acting (their role decides what is allowed)');
  const onDiagram = (name: string, description: string) =>
    asMember(leaf(diagram, name, description).argument('<uuid>', 'the diagram uuid'));

  const principalOf = (options: { team: string; email: string }) =>
    memberPrincipal(context.clients(), options);
  const diagrams = () => context.clients().diagrams;

  onDiagram('rename', "change a diagram's name and/or description (never its schema)")
    .option('--name <name>', 'the new name')
    .option('--description <text>', 'the new description ("" clears it)')
    .action(async (uuid: string, options) => {
      const renamed = await diagrams().UpdateDiagram({
        principal: await principalOf(options),
        uuid,
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.description !== undefined ? { description: options.description } : {}),
      });
      print(options, renamed, `diagram ${renamed.uuid} is now "${renamed.name}"`);
    });
  onDiagram('duplicate', 'copy a diagram into a new one of the same team')
    .option('--name <name>', 'name of the copy (default "<name> (copy)")')
    .action(async (uuid: string, options) => {
      const copy = await diagrams().DuplicateDiagram({
        principal: await principalOf(options),
        uuid,
        ...(options.name !== undefined ? { name: options.name } : {}),
      });
      print(options, copy.diagram!, `duplicated ${uuid} as ${copy.diagram!.uuid} "${copy.diagram!.name}"`);
    });
  onDiagram('delete', 'move a diagram to the Trash (owners restore it within 30 days)').action(
    async (uuid: string, options) => {
      const trashed = await diagrams().DeleteDiagram({ principal: await principalOf(options), uuid });
      print(options, trashed, `moved ${uuid} to the Trash; purged after ${trashed.purge_after}`);
    },
  );
  onDiagram('restore', 'take a diagram out of the Trash (owners)').action(async (uuid: string, options) => {
    const restored = await diagrams().RestoreDiagram({ principal: await principalOf(options), uuid });
    print(options, restored, `restored ${restored.uuid} "${restored.name}"`);
  });
  // The diagram's team is found from the member's teams when --team is left out (a diagram id names none).
  leaf(diagram, 'restore-version', 'write an older version of a diagram as its newest (owners and editors)')
    .requiredOption('--diagram <uuid>', 'the diagram uuid')
    .requiredOption(
      '--version <n>',
      'the version to restore (1 is the oldest, as History and the API number it)',
    )
    .requiredOption('--email <email>', 'the member restoring (recorded as the author of the new version)')
    .option('--team <slug>', "the diagram's team (default: the member's team that has the diagram)")
    .action(async (options) => {
      const number = /^[1-9]\d{0,8}$/.test(options.version) ? Number(options.version) : 0;
      if (number === 0)
        throw new InvalidArgumentError('--version must be a version number (1 is the oldest)');
      const principal = await principalSeeing(options.diagram, options);
      const restored = await diagrams().RestoreVersion({ principal, uuid: options.diagram, number });
      print(
        options,
        { ...restored, restored_version: number },
        `restored version ${number} of ${options.diagram} as version ${restored.version_number}`,
      );
    });
  /** The principal of the member in the team of the diagram (the named team, or the first that has it). */
  const principalSeeing = async (uuid: string, options: { team?: string; email: string }) => {
    if (options.team) return principalOf({ team: options.team, email: options.email });
    const { accounts } = context.clients();
    const user = await accounts.GetUser({ email: options.email, id: '' });
    const { memberships } = await accounts.ListMemberships({ user_id: user.id });
    for (const membership of memberships) {
      const principal = await principalOf({ team: membership.team_slug, email: options.email });
      const seen = await diagrams()
        .GetDiagram({ principal, uuid })
        .then(() => true)
        .catch((error: unknown) => {
          if (isServiceError(error) && error.code === 'not_found') return false;
          throw error;
        });
      if (seen) return principal;
    }
    throw new ServiceError('not_found', `no team of ${options.email} has the diagram ${uuid}`);
  };
  asMember(leaf(diagram, 'trash', "list the team's Trash")).action(async (options) => {
    const { diagrams: trashed } = await diagrams().ListTrash({ principal: await principalOf(options) });
    const lines = trashed.map(
      (entry) =>
        `${entry.diagram!.uuid}  deleted ${entry.deleted_at}  purged after ${entry.purge_after}  ${entry.diagram!.name}`,
    );
    print(options, { diagrams: trashed }, lines.join('\n') || 'the Trash is empty');
  });
}
