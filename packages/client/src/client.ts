// createDssClient: the typed openapi-fetch client of the whole API (`api`), plus one method per endpoint
// that returns the payload or throws DssApiError, and the helpers users ask for (every diagram across
// pages, waiting for an import, waiting for a proposal's review). 429s are retried per `retry`.
import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse } from './errors';
import { iterateDiagrams } from './pagination';
import { fetchRetryingRateLimits, type RetryOptions, sleepFor } from './retry';
import type {
  CreateWebhookRequest,
  AddCommentRequest,
  Comment,
  Revision,
  ReviseProposalRequest,
  VersionDiff,
  Migration,
  ExportFormat,
  VersionPage,
  Version,
  Conditional,
  CreateDiagramOutcome,
  CreateDiagramRequest,
  DataTypeCatalog,
  Diagram,
  DiagramDocument,
  DiagramPage,
  Driver,
  DuplicateDiagramRequest,
  DuplicateDiagramResponse,
  UpdateDiagramRequest,
  LintFinding,
  LintRule,
  LintSettings,
  LintSettingsAnswer,
  MarkdownLevel,
  paths,
  ProposalCreated,
  ProposalStatus,
  ProposeChangesRequest,
  Schema,
  SchemaPatchContract,
  Webhook,
  AuditEventPage,
  AuditEventQuery,
  WebhookDelivery,
} from './types';
import { type ProposalWaitOptions, type ImportWaitOptions, waitForImport, waitForProposal } from './waiting';

export interface DssClientOptions {
  /** The versioned root of the API, ending in `/v1` (for example http://localhost:8080/v1). */
  baseUrl: string;
  /** A personal access token; sent as `Authorization: Bearer <token>` on every request. */
  token: string;
  /** The fetch to send requests with; default the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retrying 429 answers after Retry-After; `{ maxAttempts: 1 }` turns it off. */
  retry?: RetryOptions;
  /**
   * Headers sent on every request besides the token, for example `x-forwarded-for` from a server that
   * calls the API on behalf of its own clients.
   */
  headers?: Record<string, string>;
}

export interface DssClient {
  /** The generated, fully typed openapi-fetch client, for anything the methods below do not cover. */
  readonly api: Client<paths>;
  listDiagrams(query?: { limit?: number; cursor?: string }): Promise<DiagramPage>;
  /** Every diagram the token can see, newest first, fetching pages of `pageSize` as the loop goes. */
  iterateDiagrams(options?: { pageSize?: number }): AsyncGenerator<Diagram, void, undefined>;
  getDiagram(uuid: string): Promise<Diagram>;
  createDiagram(body: CreateDiagramRequest): Promise<CreateDiagramOutcome>;
  /** Renames the diagram and/or changes its description (never its schema: that is proposals' job). */
  updateDiagram(uuid: string, body: UpdateDiagramRequest): Promise<Diagram>;
  /** A new diagram of the team with a copy of this one's schema; `name` defaults to "<name> (copy)". */
  duplicateDiagram(uuid: string, body?: DuplicateDiagramRequest): Promise<DuplicateDiagramResponse>;
  /** Polls the diagram until it leaves `importing` (see waiting.ts); answers it as `ready` or `failed`. */
  waitForImport(target: string | CreateDiagramOutcome, options?: ImportWaitOptions): Promise<Diagram>;
  getSchema(uuid: string): Promise<Schema>;
  /** The schema of version `number` (1 the oldest), as getSchema answers the current one. */
  getVersionSchema(uuid: string, number: number): Promise<Schema>;
  getSchemaMarkdown(uuid: string, options?: { level?: MarkdownLevel }): Promise<string>;
  getDiagramDocument(uuid: string): Promise<DiagramDocument>;
  listDataTypes(driver?: Driver): Promise<DataTypeCatalog>;
  getSchemaPatchContract(): Promise<SchemaPatchContract>;
  proposeChanges(diagramUuid: string, body: ProposeChangesRequest): Promise<ProposalCreated>;
  getProposal(uuid: string): Promise<ProposalStatus>;
  /**
   * GET /proposals/{uuid} with If-None-Match when `etag` is given: `notModified` while the proposal is
   * unchanged since that ETag, else the status with its new ETag.
   */
  getProposalIfChanged(uuid: string, etag?: string): Promise<Conditional<ProposalStatus>>;
  /** Polls with If-None-Match until the state is no longer `pending`; answers the final status. */
  waitForProposal(uuid: string, options?: ProposalWaitOptions): Promise<ProposalStatus>;
  /** One page of the team's audit log, newest first (owner tokens), filtered by actor, action, target, time. */
  listAuditEvents(query?: AuditEventQuery): Promise<AuditEventPage>;
  /** The team's webhooks (owner tokens). */
  listWebhooks(): Promise<Webhook[]>;
  /** Registers an endpoint; the answer's `secret` (`whsec_…`) is shown this once. */
  createWebhook(body: CreateWebhookRequest): Promise<Webhook>;
  deleteWebhook(id: string): Promise<void>;
  /** A new secret; the previous one keeps signing beside it until `previous_secret_expires_at`. */
  rotateWebhookSecret(id: string): Promise<Webhook>;
  /** Enables an endpoint that was disabled after sustained failure. */
  enableWebhook(id: string): Promise<Webhook>;
  /** The endpoint's latest deliveries, newest first, with their attempts. */
  listWebhookDeliveries(id: string, query?: { limit?: number }): Promise<WebhookDelivery[]>;
  /** Sends a delivery again, with the same webhook-id. */
  redeliverWebhook(id: string, deliveryId: string): Promise<WebhookDelivery>;
  /**
   * One long-poll of GET /proposals/{uuid}?wait=N (at most 60 s): answers as soon as the proposal is
   * decided, commented on or has changes requested, or when the wait ends (`notModified` when `etag` was
   * given and nothing changed since it). Pass the last `etag` so that nothing between two waits is missed.
   */
  waitForReview(
    uuid: string,
    options?: { waitSeconds?: number; etag?: string },
  ): Promise<Conditional<ProposalStatus>>;
  /** The proposal's comments, oldest first; a thread is a comment with `reply_to` null and its replies. */
  listComments(uuid: string): Promise<Comment[]>;
  /** Starts a thread (optionally anchored to a table or column of the changes) or, with `reply_to`, answers one. */
  addComment(uuid: string, body: AddCommentRequest): Promise<Comment>;
  /** Resolves the thread of `commentId`; answers the thread's first comment. */
  resolveThread(uuid: string, commentId: string): Promise<Comment>;
  /** The proposal's revisions, oldest first (counts only). */
  listRevisions(uuid: string): Promise<Revision[]>;
  /** Sends a revised patch; the proposal stays pending and applying it applies this revision. */
  reviseProposal(uuid: string, body: ReviseProposalRequest): Promise<Revision>;
  /** A diagram's numbered versions, newest first, one page at a time. */
  listVersions(uuid: string, query?: { limit?: number; cursor?: string }): Promise<VersionPage>;
  /** The changes between two versions (default: the last change), as data or as compact Markdown. */
  /** Sets (or, with null, clears) the label of version `number` ("v2 release"); owners and editors. */
  labelVersion(uuid: string, number: number, label: string | null): Promise<Version>;
  /** Proposes taking the diagram back to version `version`; a person applies it on the review page. */
  proposeRestore(
    diagramUuid: string,
    body: { version: number; title: string; message: string },
  ): Promise<ProposalCreated>;
  diffVersions(uuid: string, query?: { from?: number; to?: number }): Promise<VersionDiff>;
  diffVersionsMarkdown(uuid: string, query?: { from?: number; to?: number }): Promise<string>;
  /** The migration SQL between two versions (default: the last change). */
  diffVersionsSql(uuid: string, query?: { from?: number; to?: number }): Promise<string>;
  /** The diagram (or version `version`) as SQL, DBML or Mermaid text, or an SVG drawing. */
  exportDiagram(
    uuid: string,
    format: Exclude<ExportFormat, 'png'>,
    query?: { version?: number },
  ): Promise<string>;
  /** The diagram drawn as PNG bytes. */
  exportDiagramPng(uuid: string, query?: { version?: number }): Promise<Uint8Array>;
  /** The SQL that turns a database at the proposal's base version into the proposed schema, with warnings. */
  getProposalMigration(uuid: string): Promise<Migration>;
  /** The diagram's lint findings under the team's rules. */
  getDiagramLint(uuid: string): Promise<LintFinding[]>;
  /** The proposal's lint findings (counted in its status's `lint`). */
  getProposalLint(uuid: string): Promise<LintFinding[]>;
  getLintSettings(): Promise<LintSettingsAnswer>;
  /** Replaces the team's lint settings (an owner's write token). */
  setLintSettings(settings: LintSettings): Promise<LintSettingsAnswer>;
  listLintRules(): Promise<LintRule[]>;
}

interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The payload of a 2xx answer; any other answer is thrown as DssApiError. */
async function payload<T>(call: Promise<CallResult>): Promise<{ body: T; response: Response }> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFromResponse(response, error);
  return { body: data as T, response };
}

export function createDssClient(options: DssClientOptions): DssClient {
  if (!options.token) throw new Error('createDssClient: a token is required');
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.retry?.sleep ?? sleepFor;
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, authorization: `Bearer ${options.token}` },
    fetch: fetchRetryingRateLimits(baseFetch, options.retry),
  });
  const byUuid = (uuid: string) => ({ params: { path: { uuid } } });

  const client: DssClient = {
    api,
    async listDiagrams(query = {}) {
      return (await payload<DiagramPage>(api.GET('/diagrams', { params: { query } }))).body;
    },
    iterateDiagrams(iterateOptions = {}) {
      return iterateDiagrams((query) => client.listDiagrams(query), iterateOptions.pageSize);
    },
    async getDiagram(uuid) {
      return (await payload<{ data: Diagram }>(api.GET('/diagrams/{uuid}', byUuid(uuid)))).body.data;
    },
    async createDiagram(body) {
      const { body: created, response } = await payload<CreateDiagramOutcome>(
        api.POST('/diagrams', { body }),
      );
      return { ...created, httpStatus: response.status as CreateDiagramOutcome['httpStatus'] };
    },
    async updateDiagram(uuid, body) {
      return (await payload<{ data: Diagram }>(api.PATCH('/diagrams/{uuid}', { ...byUuid(uuid), body }))).body
        .data;
    },
    async duplicateDiagram(uuid, body = {}) {
      return (
        await payload<DuplicateDiagramResponse>(
          api.POST('/diagrams/{uuid}/duplicate', { ...byUuid(uuid), body }),
        )
      ).body;
    },
    waitForImport(target, waitOptions = {}) {
      return waitForImport(client, target, { sleep, ...waitOptions });
    },
    async getSchema(uuid) {
      return (await payload<{ data: Schema }>(api.GET('/diagrams/{uuid}/schema', byUuid(uuid)))).body.data;
    },
    async getVersionSchema(uuid, number) {
      const call = api.GET('/diagrams/{uuid}/versions/{number}/schema', {
        params: { path: { uuid, number }, query: { format: 'json' } },
      });
      return (await payload<{ data: Schema }>(call)).body.data;
    },
    async getSchemaMarkdown(uuid, markdownOptions = {}) {
      const query = { format: 'ai' as const, level: markdownOptions.level ?? 'detailed' };
      const call = api.GET('/diagrams/{uuid}/schema', {
        params: { path: { uuid }, query },
        headers: { accept: 'text/markdown' },
        parseAs: 'text',
      });
      return (await payload<string>(call)).body;
    },
    async getDiagramDocument(uuid) {
      const call = api.GET('/diagrams/{uuid}/schema-full', byUuid(uuid));
      return (await payload<{ data: DiagramDocument }>(call)).body.data;
    },
    async listDataTypes(driver) {
      const call = api.GET('/data-types', { params: { query: driver ? { driver } : {} } });
      return (await payload<{ data: DataTypeCatalog }>(call)).body.data;
    },
    async getSchemaPatchContract() {
      return (await payload<SchemaPatchContract>(api.GET('/schema-patch-contract'))).body;
    },
    async proposeChanges(diagramUuid, body) {
      const call = api.POST('/diagrams/{uuid}/proposals', { ...byUuid(diagramUuid), body });
      return (await payload<{ data: ProposalCreated }>(call)).body.data;
    },
    async getProposal(uuid) {
      return (await payload<{ data: ProposalStatus }>(api.GET('/proposals/{uuid}', byUuid(uuid)))).body.data;
    },
    async getProposalIfChanged(uuid, etag) {
      const header = etag ? { 'If-None-Match': etag } : {};
      const result = await api.GET('/proposals/{uuid}', { params: { path: { uuid }, header } });
      if (result.response.status === 304) return { notModified: true, etag: etag ?? '' };
      const { body, response } = await payload<{ data: ProposalStatus }>(Promise.resolve(result));
      return { notModified: false, data: body.data, etag: response.headers.get('etag') ?? '' };
    },
    waitForProposal(uuid, waitOptions = {}) {
      return waitForProposal(client, uuid, { sleep, ...waitOptions });
    },
    async listAuditEvents(query = {}) {
      return (await payload<AuditEventPage>(api.GET('/audit-events', { params: { query } }))).body;
    },
    async listWebhooks() {
      return (await payload<{ data: Webhook[] }>(api.GET('/webhooks', {}))).body.data;
    },
    async createWebhook(body) {
      return (await payload<{ data: Webhook }>(api.POST('/webhooks', { body }))).body.data;
    },
    async deleteWebhook(id) {
      await payload<unknown>(api.DELETE('/webhooks/{id}', { params: { path: { id } } }));
    },
    async rotateWebhookSecret(id) {
      const call = api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id } } });
      return (await payload<{ data: Webhook }>(call)).body.data;
    },
    async enableWebhook(id) {
      const call = api.POST('/webhooks/{id}/enable', { params: { path: { id } } });
      return (await payload<{ data: Webhook }>(call)).body.data;
    },
    async listWebhookDeliveries(id, query = {}) {
      const call = api.GET('/webhooks/{id}/deliveries', { params: { path: { id }, query } });
      return (await payload<{ data: WebhookDelivery[] }>(call)).body.data;
    },
    async redeliverWebhook(id, deliveryId) {
      const call = api.POST('/webhooks/{id}/deliveries/{delivery}/redeliver', {
        params: { path: { id, delivery: deliveryId } },
      });
      return (await payload<{ data: WebhookDelivery }>(call)).body.data;
    },
    async waitForReview(uuid, waitOptions = {}) {
      const header = waitOptions.etag ? { 'If-None-Match': waitOptions.etag } : {};
      const query = { wait: waitOptions.waitSeconds ?? 30 };
      const result = await api.GET('/proposals/{uuid}', { params: { path: { uuid }, header, query } });
      if (result.response.status === 304) return { notModified: true, etag: waitOptions.etag ?? '' };
      const { body, response } = await payload<{ data: ProposalStatus }>(Promise.resolve(result));
      return { notModified: false, data: body.data, etag: response.headers.get('etag') ?? '' };
    },
    async listComments(uuid) {
      const call = api.GET('/proposals/{uuid}/comments', byUuid(uuid));
      return (await payload<{ data: Comment[] }>(call)).body.data;
    },
    async addComment(uuid, body) {
      const call = api.POST('/proposals/{uuid}/comments', { ...byUuid(uuid), body });
      return (await payload<{ data: Comment }>(call)).body.data;
    },
    async resolveThread(uuid, commentId) {
      const call = api.POST('/proposals/{uuid}/comments/{id}/resolve', {
        params: { path: { uuid, id: commentId } },
      });
      return (await payload<{ data: Comment }>(call)).body.data;
    },
    async listRevisions(uuid) {
      const call = api.GET('/proposals/{uuid}/revisions', byUuid(uuid));
      return (await payload<{ data: Revision[] }>(call)).body.data;
    },
    async reviseProposal(uuid, body) {
      const call = api.POST('/proposals/{uuid}/revisions', { ...byUuid(uuid), body });
      return (await payload<{ data: Revision }>(call)).body.data;
    },
    async listVersions(uuid, query = {}) {
      const call = api.GET('/diagrams/{uuid}/versions', { params: { path: { uuid }, query } });
      return (await payload<VersionPage>(call)).body;
    },
    async labelVersion(uuid, number, label) {
      const call = api.PATCH('/diagrams/{uuid}/versions/{number}', {
        params: { path: { uuid, number } },
        body: { label },
      });
      return (await payload<{ data: Version }>(call)).body.data;
    },
    async proposeRestore(diagramUuid, { version, title, message }) {
      const body = { restore_version: version, title, message };
      const call = api.POST('/diagrams/{uuid}/proposals', { ...byUuid(diagramUuid), body });
      return (await payload<{ data: ProposalCreated }>(call)).body.data;
    },
    async diffVersions(uuid, query = {}) {
      const call = api.GET('/diagrams/{uuid}/diff', { params: { path: { uuid }, query } });
      return (await payload<{ data: VersionDiff }>(call)).body.data;
    },
    async diffVersionsMarkdown(uuid, query = {}) {
      const call = api.GET('/diagrams/{uuid}/diff', {
        params: { path: { uuid }, query: { ...query, format: 'markdown' } },
        parseAs: 'text',
      });
      return (await payload<string>(call)).body;
    },
    async diffVersionsSql(uuid, query = {}) {
      const call = api.GET('/diagrams/{uuid}/diff', {
        params: { path: { uuid }, query: { ...query, format: 'sql' } },
        parseAs: 'text',
      });
      return (await payload<string>(call)).body;
    },
    async exportDiagram(uuid, format, query = {}) {
      const call = api.GET('/diagrams/{uuid}/export', {
        params: { path: { uuid }, query: { ...query, format } },
        parseAs: 'text',
      });
      return (await payload<string>(call)).body;
    },
    async exportDiagramPng(uuid, query = {}) {
      const call = api.GET('/diagrams/{uuid}/export', {
        params: { path: { uuid }, query: { ...query, format: 'png' } },
        parseAs: 'arrayBuffer',
      });
      return new Uint8Array((await payload<ArrayBuffer>(call)).body);
    },
    async getProposalMigration(uuid) {
      const call = api.GET('/proposals/{uuid}/migration', {
        params: { path: { uuid }, query: { format: 'json' } },
      });
      return (await payload<{ data: Migration }>(call)).body.data;
    },
    async getDiagramLint(uuid) {
      return (await payload<{ data: LintFinding[] }>(api.GET('/diagrams/{uuid}/lint', byUuid(uuid)))).body
        .data;
    },
    async getProposalLint(uuid) {
      return (await payload<{ data: LintFinding[] }>(api.GET('/proposals/{uuid}/lint', byUuid(uuid)))).body
        .data;
    },
    async getLintSettings() {
      return (await payload<{ data: LintSettingsAnswer }>(api.GET('/lint-settings'))).body.data;
    },
    async setLintSettings(settings) {
      const call = api.POST('/lint-settings', { body: settings });
      return (await payload<{ data: LintSettingsAnswer }>(call)).body.data;
    },
    async listLintRules() {
      return (await payload<{ data: LintRule[] }>(api.GET('/lint-rules'))).body.data;
    },
  };
  return client;
}
