// Collects validation problems. Keeps the first MAX_PROBLEMS (what the API returns) and counts the rest,
// so a patch with a million mistakes costs no more memory than one with fifteen.
import { MAX_PROBLEMS, type PatchProblem, type RelationshipEndpoints } from '../patch-types';

export class ProblemList {
  readonly items: PatchProblem[] = [];
  total = 0;

  add(path: string, message: string): void {
    this.total++;
    if (this.items.length < MAX_PROBLEMS) this.items.push({ path, message: withoutPath(path, message) });
  }

  get isEmpty(): boolean {
    return this.total === 0;
  }

  /** True once the list is full: callers may skip work whose only product would be more problems. */
  get isFull(): boolean {
    return this.items.length >= MAX_PROBLEMS;
  }
}

const NAME_QUOTE_LIMIT = 60;

/** A user-supplied name for a message: quoted, and cut short so a huge name cannot bloat the response. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > NAME_QUOTE_LIMIT ? `${name.slice(0, NAME_QUOTE_LIMIT)}…` : name);
}

/** A relationship's endpoints for a message: `"posts"."user_id" – "users"."id"`. */
export function describeEndpoints(endpoints: RelationshipEndpoints): string {
  const source = `${quoteName(endpoints.source_table)}.${quoteName(endpoints.source_column)}`;
  return `${source} – ${quoteName(endpoints.target_table)}.${quoteName(endpoints.target_column)}`;
}

export function pathOf(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * The problem without its path in front: each problem carries its `path` beside its `message`, so the
 * message states the problem once (`is required`, not `tables[0].name is required`).
 */
export function withoutPath(path: string, message: string): string {
  if (path === '') return message;
  if (message.startsWith(`${path}: `)) return message.slice(path.length + 2);
  if (message.startsWith(`${path} `)) return message.slice(path.length + 1);
  return message;
}
