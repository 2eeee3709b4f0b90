// The spec's "Sizes and bounds", in one place for every surface that enforces them (gateway, diagrams,
// proposals). Bytes are UTF-8 bytes; characters are code points.
export const MAX_DDL_BYTES = 200 * 1024;
export const MAX_SCHEMA_BYTES = 500 * 1024;
export const MAX_PROPOSAL_TITLE_CHARACTERS = 100;
export const MAX_PROPOSAL_MESSAGE_CHARACTERS = 500;
export const MAX_DECLINE_REASON_CHARACTERS = 500;
