// The client keeps its own copy of the error codes because it is published standalone and must not depend
// on @dss/platform. The OpenAPI description types `code` as a plain string (no enum: a client that
// validated strictly would then reject a code added later), so the list cannot come from the generated
// types. This test is what keeps the copy honest: it fails when the two lists drift apart.
import { ERROR_CODES } from '@dss/platform';
import { DSS_ERROR_CODES } from '../src';

/**
 * Codes of platform's list that are not in the spec's REST error table: `conflict` travels between
 * services (the web app answers it on the review page), `unavailable` and `internal` are 5xx answers.
 * The client accepts them as "another string" (see DssErrorCode).
 */
const OUTSIDE_THE_REST_ERROR_TABLE = ['conflict', 'unavailable', 'internal'];

describe('DSS_ERROR_CODES', () => {
  it("should hold exactly platform's error codes of the spec's REST error table", () => {
    const expected = ERROR_CODES.filter((code) => !OUTSIDE_THE_REST_ERROR_TABLE.includes(code));
    expect([...DSS_ERROR_CODES].sort()).toEqual([...expected].sort());
  });

  it("should leave out only codes that platform's list still has", () => {
    for (const code of OUTSIDE_THE_REST_ERROR_TABLE) expect(ERROR_CODES).toContain(code);
  });
});
