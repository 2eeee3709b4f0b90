// Random version-4 UUIDs for new records, from the Web Crypto API's `getRandomValues` in batches. Web Crypto
// and TextDecoder exist in Node (>= 19 as globals) and in browsers alike: `apply` runs in both, so nothing
// here may import a Node module or use Buffer.
//
// Why not `crypto.randomUUID` per record: it builds each UUID by concatenating 20 pieces, and the first
// Map lookup of that string flattens it, so 5,000 new records (a large patch) spent about 10 ms in string
// building and the garbage collection of the pieces. Here the text of a whole batch is written into one
// byte array, decoded into one string, and each UUID is a `substring` of it: V8 makes that a slice of the
// batch's string (no copy), flat for hashing. A slice keeps its batch's 9KB alive, which is what the 256
// UUIDs of a batch take anyway.

const BATCH = 256;
const BYTES = 16;
const TEXT_LENGTH = 36;
/** ASCII codes of the hex digits and of the dash: the text is ASCII, so decoding it as UTF-8 is exact. */
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = 0x2d;

const random = new Uint8Array(BATCH * BYTES);
const text = new Uint8Array(BATCH * TEXT_LENGTH);
const decoder = new TextDecoder();
let batchText = '';
let nextInBatch = BATCH;

/** Fills `batchText` with BATCH UUIDs: version nibble 4, variant bits 10 (RFC 9562, as `randomUUID`). */
function refill(): void {
  globalThis.crypto.getRandomValues(random);
  let out = 0;
  for (let start = 0; start < random.length; start += BYTES) {
    random[start + 6] = (random[start + 6]! & 0x0f) | 0x40;
    random[start + 8] = (random[start + 8]! & 0x3f) | 0x80;
    for (let byte = 0; byte < BYTES; byte++) {
      if (byte === 4 || byte === 6 || byte === 8 || byte === 10) text[out++] = DASH;
      const value = random[start + byte]!;
      text[out++] = HEX_DIGITS[value >> 4]!;
      text[out++] = HEX_DIGITS[value & 0x0f]!;
    }
  }
  batchText = decoder.decode(text);
  nextInBatch = 0;
}

/** A random UUID (`xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`, lower case), like `crypto.randomUUID()`. */
export function randomUuid(): string {
  if (nextInBatch === BATCH) refill();
  const start = nextInBatch * TEXT_LENGTH;
  nextInBatch++;
  return batchText.substring(start, start + TEXT_LENGTH);
}
