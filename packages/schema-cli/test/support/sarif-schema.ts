// SARIF 2.1.0 validation for the tests: the standard's JSON schema (draft-04; revision 2.1.0-rtm.5) as
// Microsoft's SARIF SDK ships it in @microsoft/jest-sarif (MIT), compiled by ajv (ajv-draft-04, with
// ajv-formats for its uri, uri-reference and date-time formats).
import { readFileSync } from 'node:fs';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';

export const SARIF_SCHEMA_FILE = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

let validate: ReturnType<Ajv['compile']> | undefined;

/** Every way `log` breaks the SARIF 2.1.0 schema, one line each (`path: message`); empty when it is valid. */
export function sarifProblems(log: unknown): string[] {
  if (!validate) {
    // unicodeRegExp off: the schema's pattern of `language` has a stray `]`, an error only under the `u` flag
    // (JSON Schema draft-04 patterns are ECMA 262 regular expressions without it).
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA_FILE, 'utf8')));
  }
  if (validate(log)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message}`);
}
