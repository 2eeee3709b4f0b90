// NATS subject rules shared by both bus implementations: dot-separated tokens, `*` matches one token,
// `>` (last token only) matches one or more.

const TOKEN = /^[^\s.*>]+$/;

/** Throws unless `subject` is a valid subject, or a valid filter when `allowWildcards`. */
export function assertValidSubject(subject: string, allowWildcards: boolean): void {
  const tokens = subject.split('.');
  tokens.forEach((token, index) => {
    const wildcard = token === '*' || (token === '>' && index === tokens.length - 1);
    if (TOKEN.test(token) || (allowWildcards && wildcard)) return;
    throw new Error(`invalid ${allowWildcards ? 'subject filter' : 'subject'}: "${subject}"`);
  });
}

/** True when the literal `subject` is matched by `filter`. */
export function subjectMatches(filter: string, subject: string): boolean {
  const filterTokens = filter.split('.');
  const subjectTokens = subject.split('.');
  for (let i = 0; i < filterTokens.length; i++) {
    const token = filterTokens[i];
    if (token === '>') return subjectTokens.length > i;
    if (i >= subjectTokens.length) return false;
    if (token !== '*' && token !== subjectTokens[i]) return false;
  }
  return filterTokens.length === subjectTokens.length;
}

/**
 * The filter matching exactly the subjects both filters match, or null when they share none. Used to
 * narrow a subscription such as `>` to the part of it that one stream holds.
 */
export function intersectFilters(a: string, b: string): string | null {
  const left = a.split('.');
  const right = b.split('.');
  const result: string[] = [];
  for (let i = 0; ; i++) {
    const l = left[i];
    const r = right[i];
    if (l === undefined && r === undefined) return result.join('.');
    // `>` needs at least one token, so it narrows to whatever the other filter has left, if anything.
    if (l === '>') return i < right.length ? [...result, ...right.slice(i)].join('.') : null;
    if (r === '>') return i < left.length ? [...result, ...left.slice(i)].join('.') : null;
    if (l === undefined || r === undefined) return null;
    if (l === '*') result.push(r);
    else if (r === '*' || l === r) result.push(l);
    else return null;
  }
}
