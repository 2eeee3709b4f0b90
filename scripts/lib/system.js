'use strict';
// Finding programs and, as a last resort on Debian-like machines where we run as root (CI), installing them
// with apt-get. Every child runs without stdin (CI has none) and with a bounded time.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

/**
 * Absolute path of an executable on PATH, or in the sbin folders that a non-root PATH often lacks (Debian puts
 * nats-server in /usr/sbin).
 * @param {string} name
 * @returns {string | null}
 */
function findExecutable(name) {
  const dirs = (process.env.PATH || '').split(path.delimiter).filter(Boolean);
  for (const dir of [...dirs, '/usr/local/sbin', '/usr/sbin', '/sbin']) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Runs a command to completion, capturing its output; rejects with the output's tail on failure or timeout.
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<string>}
 */
function run(command, args, { env = process.env, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (/** @type {Buffer} */ chunk) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else {
        const why = signal ? `killed by ${signal}` : `exit code ${code}`;
        reject(new Error(`${command} ${args.join(' ')} failed (${why}): ${lastLine(output)}`));
      }
    });
  });
}

/**
 * The last non-empty line of some output, for one-line error messages.
 * @param {string} text
 * @returns {string}
 */
function lastLine(text) {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  return lines.length ? lines[lines.length - 1].trim() : '(no output)';
}

/** @type {Promise<string> | null} */
let aptUpdated = null;

/**
 * Whether this machine lets us install packages with apt-get: we are root and apt-get exists.
 * @returns {boolean}
 */
function canAptInstall() {
  return process.getuid?.() === 0 && findExecutable('apt-get') !== null;
}

/**
 * Installs a Debian package non-interactively (running `apt-get update` once per process first).
 * @param {string} pkg
 * @param {(line: string) => void} [logger]
 * @returns {Promise<void>}
 */
async function aptInstall(pkg, logger = () => {}) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    logger('apt-get update');
    aptUpdated = run('apt-get', ['update'], { env, timeoutMs: 300_000 });
    // A failed update may be transient; let the next caller try again.
    aptUpdated.catch(() => {
      aptUpdated = null;
    });
  }
  await aptUpdated;
  logger(`apt-get install ${pkg}`);
  await run('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, timeoutMs: 300_000 });
}

module.exports = { findExecutable, run, lastLine, canAptInstall, aptInstall };
