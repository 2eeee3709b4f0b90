// Stands in for packages/schema's src/uuid.ts in the browser bundle (scripts/bundle.js swaps it in): that
// module fills Node Buffers from node:crypto, which a browser has neither of. Same contract: random
// version-4 uuids, lower case. getRandomValues rather than randomUUID, which browsers offer only on HTTPS
// and localhost pages.
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  let text = '';
  for (let at = 0; at < 16; at++)
    text += (at === 4 || at === 6 || at === 8 || at === 10 ? '-' : '') + HEX[bytes[at]!];
  return text;
}
