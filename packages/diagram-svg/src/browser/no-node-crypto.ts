// Stands in for node:crypto in the browser bundle. packages/schema imports it for content hashes, which the
// /draw page never computes; failing loudly beats a silent wrong hash if that ever changes.
export function createHash(): never {
  throw new Error('Content hashes are not available in the browser bundle');
}
