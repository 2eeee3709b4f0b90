'use strict';
// A server we start as a child process (redis-server, nats-server): its output is kept for error messages,
// an early exit is noticed while we wait for readiness, and it is stopped at the end however we exit.
const { spawn } = require('node:child_process');
const { registerCleanup } = require('./cleanup');
const { lastLine } = require('./system');

const STOP_TIMEOUT_MS = 5000;

/**
 * @typedef {object} ChildService
 * @property {number} pid
 * @property {() => void} throwIfExited  throws with the server's last output line if it has exited
 * @property {() => Promise<void>} stop  SIGTERM, then SIGKILL after 5s; idempotent
 */

/**
 * @param {{ name: string, command: string, args: string[], afterStop?: () => void }} o
 * @returns {Promise<ChildService>}
 */
function startChild({ name, command, args, afterStop = () => {} }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    /** @type {string | null} */
    let exitReason = null;
    const collect = (/** @type {Buffer} */ chunk) => {
      output = (output + chunk.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const exited = new Promise((done) => {
      child.on('exit', (code, signal) => {
        exitReason = signal ? `killed by ${signal}` : `exit code ${code}`;
        done(undefined);
      });
    });
    child.once('error', reject);
    child.once('spawn', () => {
      /** @type {Promise<void> | null} */
      let stopping = null;
      const stop = () => {
        stopping ??= (async () => {
          unregister();
          if (exitReason === null) {
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
            await exited;
            clearTimeout(timer);
          }
          afterStop();
        })();
        return stopping;
      };
      const unregister = registerCleanup({
        name,
        stop,
        killSync: () => {
          child.kill('SIGTERM');
          afterStop();
        },
      });
      resolve({
        pid: /** @type {number} */ (child.pid),
        throwIfExited: () => {
          if (exitReason !== null) throw new Error(`${name} exited (${exitReason}): ${lastLine(output)}`);
        },
        stop,
      });
    });
  });
}

module.exports = { startChild };
