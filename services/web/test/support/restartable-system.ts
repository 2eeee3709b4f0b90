// A one-process system that a test stops and starts again while a page stays open: the same database,
// data directory (session key), web address and NATS each time, so the second start is a restart of the
// services, not a new system. It runs on NATS (the bus of a cluster), so events reach pages through
// JetStream. Made with one team, one editor (a signed-in person with a write token) and one diagram.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, type TestDatabase, testNatsUrl } from '@dss/platform/testing';
import {
  startTestSystem,
  type TestMember,
  TestPeople,
  type TestSystem,
  twoTableShopPatch,
} from '@dss/system';
import { PASSWORD } from './web-system';

export interface RestartableSystem {
  readonly webUrl: string;
  /** The gateway's address of the running system (it changes with each start). */
  readonly apiUrl: string;
  readonly editor: TestMember;
  readonly diagramUuid: string;
  /** Stops every service; the database and data directory stay. */
  stop(): Promise<void>;
  /** Starts the services again on the same database, data directory, address and NATS. */
  start(): Promise<void>;
  /** Stops the services if they run and drops the database. */
  close(): Promise<void>;
}

export async function startRestartableSystem(options: {
  team: string;
  editorName: string;
  diagramName: string;
}): Promise<RestartableSystem> {
  const database: TestDatabase = await createTestDatabase();
  const port = await freePort();
  const webUrl = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: database.url,
    DSS_DATA_DIR: mkdtempSync(path.join(tmpdir(), `dss-${options.team}-`)),
    DSS_WEB_PORT: String(port),
    DSS_APP_URL: webUrl,
    NATS_URL: testNatsUrl(),
  };
  // No importer: on a NATS server other test runs share, it would take their import jobs.
  const boot = () => startTestSystem(env, { withoutImporter: true });
  let system: TestSystem | undefined = await boot();

  const people = new TestPeople(system.grpc.accounts);
  await people.team(options.team);
  const editor = await people.member({
    team: options.team,
    role: 'editor',
    name: options.editorName,
    password: PASSWORD,
    write: true,
  });
  people.close();
  const created = await fetch(`${system.apiUrl}/diagrams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${editor.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: options.diagramName, driver: 'pgsql', schema: twoTableShopPatch() }),
  });
  const diagramUuid = ((await created.json()) as { data: { uuid: string } }).data.uuid;
  let apiUrl = system.apiUrl;

  const stop = async () => {
    const running = system;
    system = undefined;
    await running?.stop();
  };
  return {
    webUrl,
    get apiUrl() {
      return apiUrl;
    },
    editor,
    diagramUuid,
    stop,
    async start() {
      system = await boot();
      apiUrl = system.apiUrl;
    },
    async close() {
      await stop();
      await database.drop();
    },
  };
}
