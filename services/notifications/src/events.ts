// From the events the outboxes publish on the bus to the webhook event types. Payloads carry ids,
// numbers, states and links only: never a name, a description or a value from a patch or a comment.
import type { BusMessage } from '@dss/platform';

export const WEBHOOK_EVENT_TYPES = [
  'proposal.created',
  'proposal.commented',
  'proposal.changes_requested',
  'proposal.revised',
  'proposal.applied',
  'proposal.declined',
  'proposal.expired',
  'diagram.created',
  'diagram.updated',
  'diagram.deleted',
  'import.finished',
  'import.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The bus subjects consumed, each by its own durable queue (a queue takes one subject filter). */
export const CONSUMED_SUBJECTS = { diagrams: 'diagrams.>', proposals: 'proposals.>' } as const;

export interface NotificationEvent {
  type: WebhookEventType;
  /** Unique per bus event, so a redelivered bus message makes no second delivery. */
  key: string;
  teamId: string;
  /** Deliveries with the same key leave an endpoint in order of occurrence: the diagram. */
  orderingKey: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Proposal transitions with a webhook type; `resolved`, `opened` and `reopened` have none. */
const PROPOSAL_TYPES: Record<string, WebhookEventType> = {
  created: 'proposal.created',
  commented: 'proposal.commented',
  changes_requested: 'proposal.changes_requested',
  revised: 'proposal.revised',
  applied: 'proposal.applied',
  declined: 'proposal.declined',
  expired: 'proposal.expired',
};

function diagramType(subject: string, fields: Fields): WebhookEventType | null {
  switch (subject) {
    case 'diagrams.changed':
      if (fields.source === 'create') return 'diagram.created';
      // An import's first version is the diagram's creation as far as its content goes.
      if (fields.source === 'import') return fields.version_uuid ? 'diagram.created' : null;
      return 'diagram.updated';
    case 'diagrams.renamed':
    case 'diagrams.restored':
      return 'diagram.updated';
    case 'diagrams.deleted':
      return 'diagram.deleted';
    case 'diagrams.import.finished':
      return fields.status === 'ready' ? 'import.finished' : 'import.failed';
    default:
      return null;
  }
}

/** The webhook event a bus message stands for, or null when it has none. */
export function toNotificationEvent(message: BusMessage, appUrl: string): NotificationEvent | null {
  const fields = (message.data ?? {}) as Fields;
  const teamId = text(fields.team_id);
  const diagramUuid = text(fields.diagram_uuid);
  if (!teamId || !diagramUuid) return null;
  const type =
    message.subject === 'proposals.changed'
      ? (PROPOSAL_TYPES[String(fields.transition)] ?? null)
      : diagramType(message.subject, fields);
  if (!type) return null;
  const occurredAt =
    text(fields.at) ?? text(fields.updated_at) ?? text(fields.deleted_at) ?? new Date().toISOString();
  const links: Record<string, string> = { diagram: `${appUrl}/diagrams/${diagramUuid}` };
  const data: Fields = { team_id: teamId, diagram_uuid: diagramUuid };
  const proposalUuid = text(fields.proposal_uuid);
  if (proposalUuid) {
    data.proposal_uuid = proposalUuid;
    data.state = fields.state;
    links.review = `${appUrl}/review/${proposalUuid}`;
    if (text(fields.comment_id)) data.comment_id = fields.comment_id;
    if (typeof fields.revision === 'number') data.revision = fields.revision;
  }
  if (text(fields.version_uuid)) data.version_uuid = fields.version_uuid;
  if (typeof fields.version_number === 'number') data.version_number = fields.version_number;
  if (text(fields.job_id)) data.job_id = fields.job_id;
  if (message.subject === 'diagrams.import.finished') data.status = fields.status;
  if (text(fields.user_id)) data.user_uuid = fields.user_id;
  data.links = links;
  // The outbox gives every message an id; without one the content itself identifies the event.
  const key = `${message.subject}:${message.id ?? JSON.stringify(fields)}`;
  return { type, key, teamId, orderingKey: diagramUuid, occurredAt, data };
}
