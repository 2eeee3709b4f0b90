// `dss audit export [--team S] [--since ISO] [--until ISO]`: the audit log as JSON lines (one entry per
// line, oldest page last, newest first as the log reads), over the accounts service's gRPC, for an
// operator's archive or a SIEM. Without --team, every team's entries and those of no team (failed
// sign-ins of unknown addresses).
import type { Command } from 'commander';
import { auditEventResource } from '@dss/platform';
import type { Clients } from './clients';

interface AuditHelpers {
  clients: () => Clients;
  stdout: (text: string) => void;
}

const PAGE = 1000;

export function registerAuditCommands(program: Command, { clients, stdout }: AuditHelpers): void {
  const audit = program.command('audit').description('the audit log');
  audit
    .command('export')
    .description('write audit entries as JSON lines, newest first')
    .option('--team <slug>', 'only this team’s entries')
    .option('--since <iso>', 'entries created at or after this ISO 8601 date or timestamp')
    .option('--until <iso>', 'entries created before this ISO 8601 date or timestamp')
    .option('--action <action>', 'only this action (token.created) or group (token)')
    .action(async (options: { team?: string; since?: string; until?: string; action?: string }) => {
      const accounts = clients().accounts;
      const teamId = options.team ? (await accounts.GetTeam({ slug: options.team, id: '' })).id : '';
      let cursor = '';
      do {
        const page = await accounts.ListAuditEvents({
          team_id: teamId,
          actor: '',
          action: options.action ?? '',
          target: '',
          since: options.since ?? '',
          until: options.until ?? '',
          cursor,
          limit: PAGE,
        });
        const lines = page.events.map((event) => JSON.stringify(auditEventResource(event)));
        if (lines.length > 0) stdout(`${lines.join('\n')}\n`);
        cursor = page.has_more ? page.next_cursor : '';
      } while (cursor);
    });
}
