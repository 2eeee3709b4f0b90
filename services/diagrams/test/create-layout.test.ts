import { generateSchemaPatch } from '@dss/diagram-svg/src/bench/schema-generator';
import { type DiagramDocument, normalize } from '@dss/schema';
import { CreateLayouts, IN_PLACE_TABLES } from '../src/create-layout';

/** Counts the service thread's timer turns while `work` runs: none when the work holds the thread. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  const timer = setInterval(() => turns++, 2);
  try {
    const result = await work();
    return { result, turns };
  } finally {
    clearInterval(timer);
  }
}

describe('CreateLayouts', () => {
  const large = normalize(generateSchemaPatch({ tables: 150, relationships: 320 })).patch;
  let threaded: CreateLayouts;
  const inPlace = new CreateLayouts({ threads: 0 });

  beforeAll(() => {
    threaded = new CreateLayouts({ threads: 1 });
  });
  afterAll(async () => {
    threaded.close();
  });

  it('should leave the service thread free while a large schema is laid out in a worker thread', async () => {
    const { result, turns } = await turnsDuring(() => threaded.run('pgsql', large));
    expect(result.ok).toBe(true);
    expect(turns).toBeGreaterThan(0);
  });

  it('should hold the thread when told to use none (threads 0), as a small schema always does', async () => {
    expect((await turnsDuring(() => inPlace.run('pgsql', large))).turns).toBe(0);
    const small = normalize(generateSchemaPatch({ tables: IN_PLACE_TABLES - 1, relationships: 40 })).patch;
    expect((await turnsDuring(() => threaded.run('pgsql', small))).turns).toBe(0);
  });

  it('should lay out exactly as in place: the same tables at the same places', async () => {
    const [there, here] = await Promise.all([threaded.run('pgsql', large), inPlace.run('pgsql', large)]);
    if (!there.ok || !here.ok) throw new Error('expected both layouts to succeed');
    expect(there.tables).toBe(150);
    // The uuids are new in each; everything else is the same.
    const frames = (json: string) =>
      (JSON.parse(json) as DiagramDocument).tables.map(
        ({ name, left, top, width, height }) => `${name} ${left},${top} ${width}x${height}`,
      );
    expect(frames(there.document_json)).toEqual(frames(here.document_json));
  });

  it('should answer a worker thread’s validation failure as validate does, with its problems', async () => {
    const patch = generateSchemaPatch({ tables: 60, relationships: 80 });
    patch.tables[3]!.columns.push({ name: '', type: 'text' });
    const answer = await threaded.run('pgsql', normalize(patch).patch);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.code).toBe('invalid_schema');
    expect(JSON.stringify(answer)).toContain('tables[3]');
  });
});
