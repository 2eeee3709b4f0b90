// `dss webhook create|list|delete|deliveries|redeliver|rotate-secret|enable`: a team's webhooks, managed
// by the operator as one of the team's owners (named by --email), over the notifications service's gRPC.
import { type Command, InvalidArgumentError } from 'commander';
import type { Clients } from './clients';
import { memberPrincipal } from './member-principal';

interface WebhookHelpers {
  leaf: (parent: Command, name: string, description: string) => Command;
  print: (options: { json?: boolean }, record: object, line: string) => void;
  clients: () => Clients;
}

export function registerWebhookCommands(program: Command, { leaf, print, clients }: WebhookHelpers): void {
  const webhook = program.command('webhook').description("a team's webhook endpoints (as one of its owners)");
  const asOwner = (command: Command) =>
    command
      .requiredOption('--team <slug>', 'the team')
      .requiredOption('--email <email>', 'an owner of the team, on whose behalf the operator acts');
  // The notifications service checks the member's role itself: only owners pass.
  const ownerPrincipal = (options: { team: string; email: string }) => memberPrincipal(clients(), options);
  const notifications = () => clients().notifications;

  asOwner(leaf(webhook, 'create', 'register an endpoint; prints its secret, shown this once'))
    .requiredOption('--url <url>', 'an http(s) URL on a public address')
    .requiredOption('--events <types>', 'comma-separated event types, e.g. proposal.applied,diagram.updated')
    .action(async (options) => {
      const events = String(options.events)
        .split(',')
        .map((event) => event.trim())
        .filter(Boolean);
      if (events.length === 0) throw new InvalidArgumentError('--events names no event type');
      const created = await notifications().CreateWebhook({
        principal: await ownerPrincipal(options),
        url: options.url,
        events,
      });
      print(
        options,
        created,
        `webhook ${created.id} for ${created.events.join(', ')}\nsecret ${created.secret}`,
      );
    });
  asOwner(leaf(webhook, 'list', "list the team's webhooks")).action(async (options) => {
    const { webhooks } = await notifications().ListWebhooks({ principal: await ownerPrincipal(options) });
    const lines = webhooks.map(
      (hook) =>
        `${hook.id}  ${hook.status}  ${hook.url}  ${hook.events.join(',')}${hook.status_notice ? `\n    ${hook.status_notice}` : ''}`,
    );
    print(options, { webhooks }, lines.join('\n') || 'no webhooks');
  });
  asOwner(leaf(webhook, 'delete', 'delete a webhook; its pending deliveries are dropped'))
    .argument('<id>', 'the webhook id')
    .action(async (id: string, options) => {
      const deleted = await notifications().DeleteWebhook({ principal: await ownerPrincipal(options), id });
      print(options, deleted, `deleted webhook ${deleted.id}`);
    });
  asOwner(leaf(webhook, 'rotate-secret', 'a new secret; the old one keeps signing during the overlap'))
    .argument('<id>', 'the webhook id')
    .action(async (id: string, options) => {
      const rotated = await notifications().RotateWebhookSecret({
        principal: await ownerPrincipal(options),
        id,
      });
      print(
        options,
        rotated,
        `secret ${rotated.secret}\nold secret valid until ${rotated.previous_secret_expires_at}`,
      );
    });
  asOwner(leaf(webhook, 'enable', 'enable a webhook disabled after sustained failure'))
    .argument('<id>', 'the webhook id')
    .action(async (id: string, options) => {
      const enabled = await notifications().EnableWebhook({ principal: await ownerPrincipal(options), id });
      print(options, enabled, `webhook ${enabled.id} is ${enabled.status}`);
    });
  asOwner(leaf(webhook, 'deliveries', "a webhook's delivery log, newest first"))
    .argument('<id>', 'the webhook id')
    .option('--limit <n>', 'how many (1 to 100)', '20')
    .action(async (id: string, options) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        throw new InvalidArgumentError('--limit must be 1 to 100');
      const { deliveries } = await notifications().ListDeliveries({
        principal: await ownerPrincipal(options),
        id,
        limit,
      });
      const lines = deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        const outcome = last ? `${last.status_code ?? last.error}  ${last.latency_ms} ms` : 'not tried yet';
        return `${delivery.id}  ${delivery.event_type}  ${delivery.status}  ${delivery.attempt_count} attempt(s)  ${outcome}`;
      });
      print(options, { deliveries }, lines.join('\n') || 'no deliveries');
    });
  asOwner(leaf(webhook, 'redeliver', 'send a delivery again (same webhook-id)'))
    .argument('<id>', 'the webhook id')
    .argument('<delivery>', 'the delivery id')
    .action(async (id: string, delivery: string, options) => {
      const queued = await notifications().Redeliver({
        principal: await ownerPrincipal(options),
        id,
        delivery_id: delivery,
      });
      print(options, queued, `delivery ${queued.id} queued again`);
    });
}
