import { randomUuid } from '../src/uuid';

describe('randomUuid', () => {
  it('gives distinct version-4 UUIDs across many batches', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const uuid = randomUuid();
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(uuid);
    }
    expect(seen.size).toBe(2000);
  });
});
