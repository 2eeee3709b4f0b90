// Random version-4 UUIDs for new records, from the Web Crypto API's `getRandomValues` in batches. Web Crypto
// exists in Node (>= 19 as a global) and in browsers alike: `apply` runs in both, so nothing here may
// import a Node module or use Buffer.
//
// Why not `crypto.randomUUID` per record: it builds each UUID by concatenating 20 pieces, and the first
// Map lookup of that string flattens it, so 5,000 new records (a large patch) spent about 10 ms in string
// building and the garbage collection of the pieces. Here the character codes of a whole batch are written
// into one byte array, and each UUID is made from its 36 codes by one `String.fromCharCode` call: a flat
// string, built without a call into C++. (Not a `substring` of one batch string: V8 makes that a slice of
// the batch, cheap to make but several times slower to compare, and UUIDs are compared a lot.)

const BATCH = 256;
const BYTES = 16;
const TEXT_LENGTH = 36;
/** ASCII codes of the hex digits and of the dash. */
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = 0x2d;

const random = new Uint8Array(BATCH * BYTES);
const text = new Uint8Array(BATCH * TEXT_LENGTH);
let nextInBatch = BATCH;

/** Fills `text` with BATCH UUIDs: version nibble 4, variant bits 10 (RFC 9562, as `randomUUID`). */
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
  nextInBatch = 0;
}

/** A random UUID (`xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`, lower case), like `crypto.randomUUID()`. */
export function randomUuid(): string {
  if (nextInBatch === BATCH) refill();
  const s = nextInBatch * TEXT_LENGTH;
  nextInBatch++;
  const t = text;
  // biome-ignore format: one argument per character of the UUID, in rows of twelve
  return String.fromCharCode(
    t[s]!, t[s + 1]!, t[s + 2]!, t[s + 3]!, t[s + 4]!, t[s + 5]!, t[s + 6]!, t[s + 7]!, t[s + 8]!, t[s + 9]!, t[s + 10]!, t[s + 11]!,
    t[s + 12]!, t[s + 13]!, t[s + 14]!, t[s + 15]!, t[s + 16]!, t[s + 17]!, t[s + 18]!, t[s + 19]!, t[s + 20]!, t[s + 21]!, t[s + 22]!, t[s + 23]!,
    t[s + 24]!, t[s + 25]!, t[s + 26]!, t[s + 27]!, t[s + 28]!, t[s + 29]!, t[s + 30]!, t[s + 31]!, t[s + 32]!, t[s + 33]!, t[s + 34]!, t[s + 35]!,
  );
}
