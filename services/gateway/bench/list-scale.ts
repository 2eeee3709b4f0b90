// GET /v1/diagrams at scale: the first page and a deep cursor page of one team's list with 1k, 100k and 1M
// diagrams. The rows are streamed into the benchmark system's own database (a fresh one, dropped when the
// system stops) with COPY from a generated stream, each size adding to the one before.
//
// Row i has updated_at = 2025-01-01T00:00:00Z minus i milliseconds and a uuid that encodes i, so the list
// (newest first) is rows 0, 1, 2, … after the benchmark's own diagram, and the cursor of any position can be
// written directly (encodeCursor, the diagrams service's own), without walking thousands of pages.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { encodeCursor } from '@dss/diagrams';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type LoadSettings, type Measured, measure } from './load';

const BASE_MS = Date.UTC(2025, 0, 1);
const ROWS_PER_CHUNK = 10_000;
const PAGE = 100;

export interface ListScaleRow {
  diagrams: number;
  seedSeconds: number;
  firstPage: Measured;
  deepPage: Measured;
  /** How far down the deep page starts. */
  depth: number;
}

export async function measureListAtScale(options: {
  databaseUrl: string;
  apiUrl: string;
  token: string;
  /** Any diagram of the token's team (its row gives the team). */
  teamDiagramUuid: string;
  sizes: number[];
  seedDeadlineSeconds: number;
  load: LoadSettings;
  onRow: (row: ListScaleRow) => void;
}): Promise<ListScaleRow[]> {
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const team = (
      await client.query<{ team_id: string; team_slug: string; team_name: string; created_by: string }>(
        'SELECT team_id, team_slug, team_name, created_by FROM diagrams.diagrams WHERE uuid = $1',
        [options.teamDiagramUuid],
      )
    ).rows[0]!;
    const auth = `authorization=Bearer ${options.token}`;
    const rows: ListScaleRow[] = [];
    let seeded = 0;
    for (const size of options.sizes) {
      const started = Date.now();
      await seed(client, team, seeded, size, started + options.seedDeadlineSeconds * 1000);
      // As autovacuum would soon after such a load: statistics, and the visibility map for index-only
      // scans. Done here so that it does not run during the measurement instead.
      await client.query('VACUUM (ANALYZE) diagrams.diagrams, diagrams.diagram_update_times');
      const seedSeconds = (Date.now() - started) / 1000;
      seeded = size;

      const listUrl = `${options.apiUrl}/diagrams?limit=${PAGE}`;
      const snapshot = await snapshotOfFirstPage(listUrl, options.token);
      const depth = Math.floor(size * 0.9);
      const cursor = encodeCursor(team.team_id, {
        snapshot,
        updatedAt: microsecondText(BASE_MS - depth),
        uuid: uuidOf(depth),
      });
      await checkDeepPage(`${listUrl}&cursor=${cursor}`, options.token, depth);
      const row = {
        diagrams: size,
        seedSeconds,
        firstPage: await measure(listUrl, [auth], '2xx', options.load),
        deepPage: await measure(`${listUrl}&cursor=${cursor}`, [auth], '2xx', options.load),
        depth,
      };
      rows.push(row);
      options.onRow(row);
    }
    return rows;
  } finally {
    await client.end();
  }
}

/** Adds rows [from, to) to the team's list: the diagrams and their update times, each in one COPY. */
async function seed(
  client: Client,
  team: { team_id: string; team_slug: string; team_name: string; created_by: string },
  from: number,
  to: number,
  deadlineMs: number,
): Promise<void> {
  const diagramLine = (i: number) => {
    const at = new Date(BASE_MS - i).toISOString();
    return `${uuidOf(i)}\t${team.team_id}\t${team.team_slug}\t${team.team_name}\tDiagram ${i}\tdiagram-${i}\tpgsql\tready\t3\t${team.created_by}\t${at}\t${at}\n`;
  };
  const updateLine = (i: number) => `${uuidOf(i)}\t${new Date(BASE_MS - i).toISOString()}\n`;
  await client.query('BEGIN');
  try {
    await copyLines(
      client,
      `COPY diagrams.diagrams (uuid, team_id, team_slug, team_name, name, slug, driver, status, table_count,
         created_by, created_at, updated_at) FROM STDIN`,
      from,
      to,
      diagramLine,
      deadlineMs,
    );
    await copyLines(
      client,
      'COPY diagrams.diagram_update_times (diagram_uuid, updated_at) FROM STDIN',
      from,
      to,
      updateLine,
      deadlineMs,
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Streams lines [from, to) in chunks, so memory stays flat; gives up past the deadline. */
async function copyLines(
  client: Client,
  sql: string,
  from: number,
  to: number,
  line: (i: number) => string,
  deadlineMs: number,
): Promise<void> {
  let next = from;
  const source = new Readable({
    read() {
      if (Date.now() > deadlineMs) {
        this.destroy(new Error(`seeding did not finish by its deadline (BENCH_SEED_DEADLINE_SECONDS)`));
        return;
      }
      if (next >= to) {
        this.push(null);
        return;
      }
      const end = Math.min(to, next + ROWS_PER_CHUNK);
      let chunk = '';
      for (let i = next; i < end; i++) chunk += line(i);
      next = end;
      this.push(chunk);
    },
  });
  await pipeline(source, client.query(copyFrom(sql)));
}

/** A valid version-4 uuid that encodes i (sortable, so the seeded rows are easy to name). */
function uuidOf(i: number): string {
  const hex = i.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/** UTC time with six fractional digits, the form the list cursor carries. */
function microsecondText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

async function snapshotOfFirstPage(url: string, token: string): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { data: unknown[]; meta: { next_cursor: string | null } };
  if (response.status !== 200 || body.data.length !== PAGE || !body.meta.next_cursor)
    throw new Error(`the first page answered ${response.status} with ${body.data.length} diagrams`);
  return (JSON.parse(Buffer.from(body.meta.next_cursor, 'base64url').toString('utf8')) as { s: string }).s;
}

/** The deep page must be the rows right after the cursor's position, or the figures measure nothing. */
async function checkDeepPage(url: string, token: string, depth: number): Promise<void> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { data: { uuid: string }[] };
  const expected = uuidOf(depth + 1);
  if (response.status !== 200 || body.data[0]?.uuid !== expected)
    throw new Error(
      `the deep page answered ${response.status}, first ${body.data[0]?.uuid}, not ${expected}`,
    );
}
