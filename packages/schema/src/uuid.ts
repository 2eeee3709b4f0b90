// Random version-4 UUIDs for new records, from the Web Crypto API's `getRandomValues` in batches. Web Crypto
// exists in Node (>= 19 as a global) and in browsers alike: `apply` runs in both, so nothing here may
// import a Node module or use Buffer.
//
// Why not `crypto.randomUUID` per record: it builds each UUID by concatenating 20 pieces, and the first
// Map lookup of that string flattens it, so 5,000 new records (a large patch) spent about 10 ms in string
// building and the garbage collection of the pieces. Here random bytes come in batches, and each UUID is
// made from its 16 bytes by one `String.fromCharCode` call with the 36 character codes: a flat string,
// built without a call into C++. (Not a `substring` of one text of the batch: V8 makes that a slice of
// it, cheap to make but several times slower to compare, and UUIDs are compared a lot.)

const BATCH = 256;
const BYTES = 16;
/** ASCII codes of the hex digits, by value. */
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = 0x2d;

const random = new Uint8Array(BATCH * BYTES);
let nextInBatch = BATCH;

function high(byte: number): number {
  return HEX_DIGITS[byte >> 4]!;
}

function low(byte: number): number {
  return HEX_DIGITS[byte & 0x0f]!;
}

/** A random UUID (`xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`, lower case), like `crypto.randomUUID()`. */
export function randomUuid(): string {
  if (nextInBatch === BATCH) {
    globalThis.crypto.getRandomValues(random);
    nextInBatch = 0;
  }
  const r = random;
  const s = nextInBatch * BYTES;
  nextInBatch++;
  // Version nibble 4 and variant bits 10 (RFC 9562, as `randomUUID`).
  const version = (r[s + 6]! & 0x0f) | 0x40;
  const variant = (r[s + 8]! & 0x3f) | 0x80;
  // biome-ignore format: the UUID's 36 characters, one group of bytes per row
  return String.fromCharCode(
    high(r[s]!), low(r[s]!), high(r[s + 1]!), low(r[s + 1]!), high(r[s + 2]!), low(r[s + 2]!), high(r[s + 3]!), low(r[s + 3]!), DASH,
    high(r[s + 4]!), low(r[s + 4]!), high(r[s + 5]!), low(r[s + 5]!), DASH,
    high(version), low(version), high(r[s + 7]!), low(r[s + 7]!), DASH,
    high(variant), low(variant), high(r[s + 9]!), low(r[s + 9]!), DASH,
    high(r[s + 10]!), low(r[s + 10]!), high(r[s + 11]!), low(r[s + 11]!), high(r[s + 12]!), low(r[s + 12]!),
    high(r[s + 13]!), low(r[s + 13]!), high(r[s + 14]!), low(r[s + 14]!), high(r[s + 15]!), low(r[s + 15]!),
  );
}
