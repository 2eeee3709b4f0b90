'use strict';
// One registry for everything the tooling starts (redis-server, nats-server, the embedded PostgreSQL), so that
// it is stopped however the process ends: normal exit, Ctrl-C, SIGTERM from CI. On 'exit' only synchronous work
// is possible, so each entry has a synchronous last resort (send a signal) besides its graceful async stop.

/** @typedef {{ name: string, stop: () => Promise<void>, killSync: () => void }} Cleanup */

/** @type {Set<Cleanup>} */
const entries = new Set();
let hooked = false;

/**
 * Registers something to stop at exit; returns the function that unregisters it (call it after a normal stop).
 * @param {Cleanup} entry
 * @returns {() => void}
 */
function registerCleanup(entry) {
  hookProcess();
  entries.add(entry);
  return () => {
    entries.delete(entry);
  };
}

/**
 * Stops everything registered, gracefully and concurrently; errors are reported, not thrown, so one failing
 * stop does not keep the others running.
 * @returns {Promise<void>}
 */
async function stopAll() {
  const list = [...entries];
  await Promise.all(
    list.map(async (entry) => {
      try {
        await entry.stop();
      } catch (err) {
        process.stderr.write(`could not stop ${entry.name}: ${err instanceof Error ? err.message : err}\n`);
      } finally {
        entries.delete(entry);
      }
    }),
  );
}

function hookProcess() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const entry of entries) {
      try {
        entry.killSync();
      } catch {
        // the process is already gone
      }
    }
  });
  for (const [signal, code] of /** @type {const} */ ([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ])) {
    process.once(signal, () => {
      // An application with its own handler (scripts/start.js) orders its shutdown itself and calls stop();
      // the 'exit' hook above stays the last resort.
      if (process.listenerCount(signal) > 0) return;
      // Bounded: a hung stop must not keep a Ctrl-C'd run alive; 'exit' then sends the last-resort signals.
      const timer = setTimeout(() => process.exit(code), 10_000);
      timer.unref();
      stopAll().finally(() => process.exit(code));
    });
  }
}

module.exports = { registerCleanup, stopAll };
