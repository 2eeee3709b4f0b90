// Friendly names for the generated OpenAPI types, so callers never spell `components['schemas'][...]`.
import type { components, paths } from './generated/openapi';

export type { components, paths };
type Schemas = components['schemas'];

export type Driver = Schemas['Driver'];
export type Diagram = Schemas['Diagram'];
export type DiagramPage = Schemas['DiagramListResponse'];
export type DiagramStatus = Schemas['DiagramStatus'];
export type Schema = Schemas['Schema'];
export type DiagramDocument = Schemas['DiagramDocument'];
export type DataTypeEntry = Schemas['DataTypeEntry'];
export type DataTypeCatalog = Schemas['DataTypeCatalogResponse']['data'];
export type SchemaPatch = Schemas['SchemaPatch'];
export type SchemaPatchContract = Schemas['SchemaPatchContract'];
export type CreateDiagramRequest = Schemas['CreateDiagramRequest'];
export type CreateDiagramResponse = Schemas['CreateDiagramResponse'];
export type UpdateDiagramRequest = Schemas['UpdateDiagramRequest'];
export type DuplicateDiagramRequest = Schemas['DuplicateDiagramRequest'];
export type DuplicateDiagramResponse = Schemas['DuplicateDiagramResponse'];
export type ProposeChangesRequest = Schemas['ProposeChangesRequest'];
export type ProposalCreated = Schemas['ProposalCreated'];
export type ProposalStatus = Schemas['ProposalStatus'];
export type Comment = Schemas['Comment'];
export type CommentAnchor = Schemas['CommentAnchor'];
export type AddCommentRequest = Schemas['AddCommentRequest'];
export type Revision = Schemas['Revision'];
export type ReviseProposalRequest = Schemas['ReviseProposalRequest'];
export type VersionPage = Schemas['VersionListResponse'];
export type Version = Schemas['Version'];
export type Webhook = Schemas['Webhook'];
export type AuditEvent = Schemas['AuditEvent'];
export type AuditEventPage = Schemas['AuditEventListResponse'];
export type AuditEventQuery = NonNullable<paths['/audit-events']['get']['parameters']['query']>;
export type WebhookEventType = Schemas['WebhookEventType'];
export type CreateWebhookRequest = Schemas['CreateWebhookRequest'];
export type WebhookDelivery = Schemas['Delivery'];
export type VersionDiff = Schemas['DiffResponse']['data'];
export type Migration = Schemas['MigrationResponse']['data'];
/** What a migration statement can do to the data: `safe`, `guarded` (a check stops it first), `destructive`. */
export type MigrationStatementSafety = Migration['safety'][number];
export type MigrationWarning = Migration['warnings'][number];
export type ExportFormat = 'sql' | 'dbml' | 'mermaid' | 'svg' | 'png';
export type ProposalState = Schemas['ProposalState'];
export type PatchProblem = Schemas['PatchProblem'];
export type PatchWarning = Schemas['PatchWarning'];
export type ErrorDetail = Schemas['ErrorDetail'];
export type MarkdownLevel = 'detailed' | 'simple';
export type LintFinding = Schemas['LintFinding'];
export type LintSettings = Schemas['LintSettings'];
export type LintSettingsAnswer = Schemas['LintSettingsResponse']['data'];
export type LintRule = Schemas['LintRulesResponse']['data'][number];

/** A create's answer with the HTTP status that tells its kind: 201 created, 202 importing, 200 replayed. */
export type CreateDiagramOutcome = CreateDiagramResponse & { httpStatus: 200 | 201 | 202 };

/** A conditional read: the representation and its ETag, or `notModified` when the ETag sent still holds. */
export type Conditional<T> =
  | { notModified: false; data: T; etag: string }
  | { notModified: true; etag: string };
