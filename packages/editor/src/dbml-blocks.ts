// Re-reading only what changed: the top-level blocks of a DBML text (`Table`, `Ref`, `Enum`, …), and the
// excerpts of two texts that hold the Table and Ref blocks a person changed with what those blocks need to be
// read (the tables they name, every Enum, TablePartial and Project). Reading both excerpts with the same
// conversion as the whole text and diffing them (dbml-sync.ts) gives the patch of the whole texts, at the cost
// of a few blocks instead of every table. An excerpt keeps every line where it was (left-out blocks become
// empty lines), so an error or warning in it is at its line and column of the text.

export interface DbmlBlock {
  /** `table`, `ref`, `enum`, `tablegroup`, `note`, `project`, `tablepartial`, … (lower case). */
  kind: string;
  /** The block's name without quotes (`sales.orders`); for a block without one, its whole text. */
  name: string;
  /** Another name the block answers to (`Table users as U`). */
  alias: string | null;
  start: number;
  end: number;
}

/** Blocks every excerpt keeps: what a table's columns may use. */
const CONTEXT_KINDS = new Set(['enum', 'tablepartial', 'project']);
/** Blocks whose change can be read from an excerpt. */
const EXCERPT_KINDS = new Set(['table', 'ref']);

/** Skips a string or comment starting at `at`; returns where it ends, or `at` when there is none there. */
function skipQuotedOrComment(text: string, at: number): number {
  if (text.startsWith('//', at)) {
    const end = text.indexOf('\n', at);
    return end < 0 ? text.length : end;
  }
  if (text.startsWith('/*', at)) {
    const end = text.indexOf('*/', at + 2);
    return end < 0 ? -1 : end + 2;
  }
  if (text.startsWith("'''", at)) {
    const end = text.indexOf("'''", at + 3);
    return end < 0 ? -1 : end + 3;
  }
  const quote = text[at];
  if (quote === "'" || quote === '"' || quote === '`') {
    for (let next = at + 1; next < text.length; next++) {
      if (text[next] === '\\') next++;
      else if (text[next] === quote) return next + 1;
      else if (text[next] === '\n' && quote !== '`') return -1;
    }
    return -1;
  }
  return at;
}

function unquoted(name: string): string {
  return name.replace(/["`]/g, '').trim();
}

/** The top-level blocks of `text` in order, or null when it cannot be split (an unclosed brace or string). */
export function dbmlBlocks(text: string): DbmlBlock[] | null {
  const blocks: DbmlBlock[] = [];
  let at = 0;
  while (at < text.length) {
    const skipped = skipQuotedOrComment(text, at);
    if (skipped < 0) return null;
    if (skipped !== at || /\s/.test(text[at]!)) {
      at = skipped === at ? at + 1 : skipped;
      continue;
    }
    const start = at;
    let depth = 0;
    while (at < text.length) {
      const after = skipQuotedOrComment(text, at);
      if (after < 0) return null;
      if (after !== at) {
        at = after;
        continue;
      }
      const char = text[at]!;
      if (char === '{') depth++;
      else if (char === '}' && --depth === 0) {
        at++;
        break;
      } else if (char === '}' && depth < 0) return null;
      else if (char === '\n' && depth === 0) break;
      at++;
    }
    if (depth > 0) return null;
    blocks.push(describe(text.slice(start, at), start, at));
  }
  return blocks;
}

function describe(block: string, start: number, end: number): DbmlBlock {
  const header =
    /^(\w+)\s*((?:"[^"]*"|`[^`]*`|[^\s{[:"`])+(?:\.(?:"[^"]*"|`[^`]*`|[^\s{[:".`]+))*)?(?:\s+as\s+(\S+?))?\s*[[{:]?/i.exec(
      block,
    );
  const kind = (header?.[1] ?? '').toLowerCase();
  const name = header?.[2] && kind !== 'ref' && kind !== 'note' ? unquoted(header[2]) : block;
  return { kind, name, alias: header?.[3] ? unquoted(header[3]) : null, start, end };
}

/** The names a block's text mentions (`users.id`, `"sales"."orders"`), without quotes. */
function mentionedNames(text: string): string[] {
  return [
    ...text.matchAll(/(?:"[^"]+"|`[^`]+`|[A-Za-z_][\w$]*)(?:\s*\.\s*(?:"[^"]+"|`[^`]+`|[A-Za-z_][\w$]*))*/g),
  ].map((match) => unquoted(match[0].replace(/\s*\.\s*/g, '.')));
}

/** `text` with only the blocks at `keep` left; every other character but a line break becomes a space. */
function excerptOf(text: string, blocks: DbmlBlock[], keep: Set<number>): string {
  let out = '';
  let at = 0;
  blocks.forEach((block, index) => {
    out += text.slice(at, block.start).replace(/[^\n]/g, ' ');
    const body = text.slice(block.start, block.end);
    out += keep.has(index) ? body : body.replace(/[^\n]/g, '');
    at = block.end;
  });
  return out + text.slice(at).replace(/[^\n]/g, ' ');
}

/**
 * The excerpts of `before` and `after` holding what changed between them, or null when it must be read
 * whole: a change to other blocks than Table and Ref, a table removed or renamed, or a text that does not split.
 */
export function changedExcerpts(before: string, after: string): { before: string; after: string } | null {
  const was = dbmlBlocks(before);
  const now = dbmlBlocks(after);
  if (!was || !now) return null;
  const key = (text: string, block: DbmlBlock) =>
    block.kind === 'table'
      ? `table\u0000${block.name}`
      : `${block.kind}\u0000${text.slice(block.start, block.end)}`;
  const wasByKey = new Map(was.map((block) => [key(before, block), block]));
  const nowByKey = new Map(now.map((block) => [key(after, block), block]));
  const changed: { text: string; block: DbmlBlock }[] = [];
  for (const [name, block] of wasByKey) {
    const other = nowByKey.get(name);
    if (other && after.slice(other.start, other.end) === before.slice(block.start, block.end)) continue;
    if (!EXCERPT_KINDS.has(block.kind) || (!other && block.kind === 'table')) return null;
    changed.push({ text: before, block });
  }
  for (const [name, block] of nowByKey) {
    const other = wasByKey.get(name);
    if (other && after.slice(block.start, block.end) === before.slice(other.start, other.end)) continue;
    if (!EXCERPT_KINDS.has(block.kind)) return null;
    changed.push({ text: after, block });
  }
  if (changed.length === 0) return null;
  // The tables the changed blocks name (in either text), and the changed tables themselves.
  const tables = new Set<string>();
  for (const { text, block } of changed) {
    if (block.kind === 'table') tables.add(block.name);
    for (const name of mentionedNames(text.slice(block.start, block.end))) {
      const parts = name.split('.');
      for (let size = 1; size <= parts.length; size++)
        tables.add(
          parts
            .slice(0, size)
            .join('.')
            .replace(/^public\./, ''),
        );
    }
  }
  const keep = (text: string, blocks: DbmlBlock[]) => {
    const changedHere = new Set(changed.filter((entry) => entry.text === text).map((entry) => entry.block));
    const kept = new Set<number>();
    blocks.forEach((block, index) => {
      const named =
        block.kind === 'table' &&
        (tables.has(block.name) ||
          tables.has(block.name.replace(/^public\./, '')) ||
          (block.alias !== null && tables.has(block.alias)));
      if (CONTEXT_KINDS.has(block.kind) || named || changedHere.has(block)) kept.add(index);
    });
    return excerptOf(text, blocks, kept);
  };
  return { before: keep(before, was), after: keep(after, now) };
}
