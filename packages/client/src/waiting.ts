// Waiting for the two things that finish later than the request that started them: a DDL import
// (poll GET /diagrams/{uuid} every `poll_after_seconds`) and a proposal's review (poll GET /proposals/{uuid}
// with If-None-Match, so an unchanged proposal costs a 304 with no body).
import type { Conditional, CreateDiagramOutcome, Diagram, ProposalStatus } from './types';

/** Thrown when a wait outlives its `timeoutMs`; carries the last state seen. */
export class DssWaitTimeoutError<T> extends Error {
  override readonly name = 'DssWaitTimeoutError';
  constructor(
    message: string,
    readonly last: T,
  ) {
    super(message);
  }
}

interface WaitOptions {
  /** Give up (DssWaitTimeoutError) once this much time has passed. */
  timeoutMs?: number;
  /** How to wait between polls; defaults to the client's (a timer). */
  sleep?: (milliseconds: number) => Promise<void>;
}

export interface ImportWaitOptions extends WaitOptions {
  /** Seconds between polls when the target is a uuid; a create outcome brings its own `poll_after_seconds`. */
  pollAfterSeconds?: number;
}

export interface ProposalWaitOptions extends WaitOptions {
  /** Seconds between polls. Default 5. */
  intervalSeconds?: number;
}

/** The API's own `poll_after_seconds` today; used when only a uuid is known. */
export const DEFAULT_POLL_AFTER_SECONDS = 2;
const DEFAULT_IMPORT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_PROPOSAL_TIMEOUT_MS = 24 * 60 * 60_000;

export async function waitForImport(
  client: { getDiagram(uuid: string): Promise<Diagram> },
  target: string | CreateDiagramOutcome,
  options: ImportWaitOptions,
): Promise<Diagram> {
  const uuid = typeof target === 'string' ? target : target.data.uuid;
  const pollSeconds =
    typeof target === 'string'
      ? (options.pollAfterSeconds ?? DEFAULT_POLL_AFTER_SECONDS)
      : target.poll_after_seconds || DEFAULT_POLL_AFTER_SECONDS;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS);
  const sleep = options.sleep as (milliseconds: number) => Promise<void>;
  let diagram = await client.getDiagram(uuid);
  while (diagram.status === 'importing') {
    if (Date.now() >= deadline) throw new DssWaitTimeoutError(`diagram ${uuid} is still importing`, diagram);
    await sleep(pollSeconds * 1000);
    diagram = await client.getDiagram(uuid);
  }
  return diagram;
}

export async function waitForProposal(
  client: {
    getProposalIfChanged(uuid: string, etag?: string): Promise<Conditional<ProposalStatus>>;
  },
  uuid: string,
  options: ProposalWaitOptions,
): Promise<ProposalStatus> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_PROPOSAL_TIMEOUT_MS);
  const sleep = options.sleep as (milliseconds: number) => Promise<void>;
  const intervalMs = (options.intervalSeconds ?? 5) * 1000;
  // The first read sends no ETag, so it always brings the status and the ETag to send from then on.
  let current = await client.getProposalIfChanged(uuid);
  if (current.notModified) throw new Error(`proposal ${uuid}: 304 to a read without If-None-Match`);
  let status = current.data;
  let etag = current.etag;
  while (status.state === 'pending') {
    if (Date.now() >= deadline) throw new DssWaitTimeoutError(`proposal ${uuid} is still pending`, status);
    await sleep(intervalMs);
    current = await client.getProposalIfChanged(uuid, etag);
    if (current.notModified) continue;
    status = current.data;
    etag = current.etag;
  }
  return status;
}
