// What the /draw page shows for its address, without touching the DOM (the page script, browser/draw.ts,
// only puts the result on the page): the patch is read from the fragment, so it never reaches a server,
// normalised and validated against an empty diagram of the driver, applied (tables without a position are
// laid out) and drawn.
//
// Validation mode `propose`, not `create`: a patch for /draw may carry `left`/`top`/`width`/`height` and
// they must be honoured, while `create` refuses them (`unsupported_field`) because the API computes the
// layout of a new diagram itself. Against an empty document both modes check everything else alike.
import {
  apply,
  DRIVERS,
  type Driver,
  emptyDocument,
  MAX_SCHEMA_BYTES,
  normalize,
  type PatchProblem,
  type PatchWarning,
  validate,
} from '@dss/schema';
import { renderDiagramSvg } from './render';

export const DEFAULT_DRIVER: Driver = 'mysql';

export interface DrawProblem {
  /** Where in the patch, as `tables[0].columns[2]`; `''` for the patch as a whole. */
  path: string;
  message: string;
}

export type DrawFailure =
  | 'missing_patch'
  | 'invalid_encoding'
  | 'too_large'
  | 'invalid_json'
  | 'invalid_patch'
  | 'invalid_driver';

export type DrawResult =
  | { ok: true; svg: string; driver: Driver; tableCount: number; warnings: DrawProblem[] }
  | { ok: false; reason: DrawFailure; message: string; problems: DrawProblem[]; warnings: DrawProblem[] };

export interface DrawOptions {
  /** Source of uuids for the drawn records (they never appear in the SVG); random by default. */
  newUuid?: () => string;
}

/**
 * The drawing for a /draw address: `hash` is `location.hash` (`#patch=<url-encoded JSON>`), `search` is
 * `location.search` (`?driver=mysql|pgsql|sqlsrv`, mysql by default as in the spec).
 */
export function drawFromLocation(hash: string, search: string, options: DrawOptions = {}): DrawResult {
  const driver = driverFrom(search);
  if (driver === null) {
    const message = `Unknown driver in ?driver=; use one of ${DRIVERS.join(', ')}`;
    return failure('invalid_driver', message, [{ path: '', message }]);
  }
  const encoded = patchParameter(hash);
  if (encoded === null)
    return failure('missing_patch', 'Nothing to draw: the address has no #patch= with a schema patch', []);
  let text: string;
  try {
    text = decodeURIComponent(encoded);
  } catch {
    return failure('invalid_encoding', 'The patch in #patch= is not correctly URL-encoded', []);
  }
  if (utf8Length(text) > MAX_SCHEMA_BYTES)
    return failure('too_large', `The patch is larger than ${MAX_SCHEMA_BYTES / 1024}KB`, []);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return failure('invalid_json', `The patch is not valid JSON${detail}`, []);
  }
  const normalized = normalize(parsed);
  const warnings = normalized.warnings.map(problemOf);
  const validation = validate(normalized.patch, null, driver, 'propose');
  if (!validation.ok)
    return failure('invalid_patch', validation.message, validation.problems.map(problemOf), warnings);
  const { document } = apply(emptyDocument(driver), validation.patch, { newUuid: options.newUuid });
  const tableCount = document.tables.length;
  const svg = renderDiagramSvg(document, {
    title: `Diagram drawn from a patch (${driver}, ${tableCount} ${tableCount === 1 ? 'table' : 'tables'})`,
  });
  return { ok: true, svg, driver, tableCount, warnings };
}

/** The driver named by `?driver=`, the default when absent, or null when it names no driver. */
export function driverFrom(search: string): Driver | null {
  const value = new URLSearchParams(search).get('driver');
  if (value === null || value === '') return DEFAULT_DRIVER;
  return (DRIVERS as readonly string[]).includes(value) ? (value as Driver) : null;
}

/**
 * The still-encoded value of `patch=` in the fragment. Everything after `patch=` is taken, so a patch
 * whose `&` a sender forgot to encode still arrives whole.
 */
function patchParameter(hash: string): string | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  let start: number;
  if (fragment.startsWith('patch=')) start = 'patch='.length;
  else {
    const at = fragment.indexOf('&patch=');
    if (at === -1) return null;
    start = at + '&patch='.length;
  }
  const value = fragment.slice(start);
  return value.trim() === '' ? null : value;
}

function failure(
  reason: DrawFailure,
  message: string,
  problems: DrawProblem[],
  warnings: DrawProblem[] = [],
): DrawResult {
  return { ok: false, reason, message, problems, warnings };
}

function problemOf(problem: PatchProblem | PatchWarning): DrawProblem {
  return { path: problem.path, message: problem.message };
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      at++;
    } else bytes += 3;
  }
  return bytes;
}
