// What the review page's conversation needs from a request: the signed-in person as the actor of a
// proposals call, the posted form's text and anchor, and which revision "what changed since" compares with.
import { type DiagramDocument, type Driver, diff } from '@dss/schema';
import type { Request } from 'express';
import { type ProposedChange, proposedChange } from './proposed-document';
import type { Viewer } from './viewer';
import type { SinceChange } from './views/revisions';

/** The signed-in person as the actor of a conversation call (named by user id, not by a token). */
export function asPerson(viewer: Viewer) {
  return { principal: null, user_id: viewer.user.id } as unknown as { principal: never; user_id: string };
}

/** A text field of the posted form, line breaks as the API stores them (\n). */
export function formText(req: Request, name: string): string {
  const raw = (req.body as Record<string, unknown>)[name];
  return typeof raw === 'string' ? raw.replace(/\r\n/g, '\n') : '';
}

/** The anchor select's value (JSON of `{table, column?}`, or empty for the whole proposal). */
export function anchorOf(value: string): { table: string; column?: string } | null {
  if (value === '') return null;
  try {
    const parsed = JSON.parse(value) as { table?: unknown; column?: unknown };
    if (typeof parsed.table !== 'string') return null;
    return { table: parsed.table, ...(typeof parsed.column === 'string' ? { column: parsed.column } : {}) };
  } catch {
    // Not one of the page's options: the service refuses the unknown table by name.
    return { table: value };
  }
}

type ReviewRevision = { number: number; patch_json: string };

/**
 * "What changed since revision N": revision N and the latest applied to the same base (the diagram as it is,
 * or before the apply for an applied proposal). N is `?since=` when it names an earlier revision, else the
 * revision the last request for changes was made on (what the reviewer last looked at), else the one before.
 */
export function sinceChange(
  req: Request,
  revisions: ReviewRevision[],
  comments: { kind: string; revision: number }[],
  change: ProposedChange | null,
  current: DiagramDocument | null,
  driver: Driver,
): SinceChange | null {
  const latest = revisions[revisions.length - 1];
  if (!latest || latest.number < 2) return null;
  const asked = Number(req.query.since);
  const lastRequest = comments.filter((comment) => comment.kind === 'changes_requested').at(-1)?.revision;
  const since =
    Number.isInteger(asked) && asked >= 1 && asked < latest.number
      ? asked
      : lastRequest !== undefined && lastRequest < latest.number
        ? lastRequest
        : latest.number - 1;
  const base = change?.fits ? change.before : current;
  if (!base) return null;
  const earlier = proposedChange(base, revisions[since - 1]!.patch_json, driver);
  const now = proposedChange(base, latest.patch_json, driver);
  if (!earlier.fits || !now.fits)
    return {
      since,
      problem: 'One of the two revisions no longer fits the diagram, so they cannot be compared.',
    };
  return { since, changes: diff(earlier.after, now.after) };
}
