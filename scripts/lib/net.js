'use strict';
// Small TCP helpers: port availability and the one-line handshakes used to tell whether Redis or NATS answers
// on a port, without pulling their client libraries into the tooling.
const crypto = require('node:crypto');
const net = require('node:net');

/**
 * Whether nothing listens on host:port (we can bind it ourselves).
 * @param {number} port
 * @param {string} [host]
 * @returns {Promise<boolean>}
 */
function isPortFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

const handedOut = new Set();

/**
 * A free loopback port below Linux's ephemeral range (32768-60999), never the same one twice in a process: a
 * port from that range can be taken as the source port of any outgoing connection on this machine between
 * the probe and the bind of whatever is started on it (a container's PostgreSQL failed so, "Address already
 * in use", while other tests ran).
 * @param {string} [host]
 * @returns {Promise<number>}
 */
async function freePort(host = '127.0.0.1') {
  for (let probe = 0; probe < 500; probe++) {
    const port = 20_000 + crypto.randomInt(12_000);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await isPortFree(port, host)) return port;
    handedOut.delete(port);
  }
  throw new Error('no free port between 20000 and 32000 after 500 probes');
}

/**
 * Connects, optionally sends a line, and collects what the server says until `done` accepts it. Resolves null
 * when nothing (or nothing acceptable) arrives in time; never rejects.
 * @param {{ host: string, port: number, send?: string, done: (text: string) => boolean, timeoutMs?: number }} o
 * @returns {Promise<string | null>}
 */
function converse({ host, port, send, done, timeoutMs = 1500 }) {
  return new Promise((resolve) => {
    let text = '';
    let settled = false;
    const socket = net.connect({ host, port });
    /** @param {string | null} value */
    const finish = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      if (send) socket.write(send);
    });
    socket.on('data', (chunk) => {
      text += chunk;
      if (done(text)) finish(text);
    });
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(done(text) ? text : null));
  });
}

/**
 * Sends PING and returns the first reply line (`+PONG`, or an error such as `-NOAUTH ...`), or null when
 * nothing Redis-like answers.
 * @param {string} host
 * @param {number} port
 * @param {number} [timeoutMs]
 * @returns {Promise<string | null>}
 */
async function redisPing(host, port, timeoutMs) {
  const reply = await converse({ host, port, send: 'PING\r\n', done: (t) => t.includes('\r\n'), timeoutMs });
  if (!reply) return null;
  const line = reply.slice(0, reply.indexOf('\r\n'));
  return line.startsWith('+') || line.startsWith('-') ? line : null;
}

/**
 * Reads the INFO line a NATS server sends on connect and returns its JSON (it has `jetstream: true` when
 * JetStream is enabled), or null when nothing NATS-like answers.
 * @param {string} host
 * @param {number} port
 * @param {number} [timeoutMs]
 * @returns {Promise<{ jetstream?: boolean, version?: string } | null>}
 */
async function natsInfo(host, port, timeoutMs) {
  const reply = await converse({ host, port, done: (t) => t.includes('\r\n'), timeoutMs });
  const match = reply && /^INFO\s+(\{.*\})\s*\r\n/.exec(reply);
  if (!match) return null;
  try {
    return JSON.parse(match[1]);
  } catch {
    return null;
  }
}

/**
 * Polls `check` until it returns a non-null value, or fails after `timeoutMs`. `abort` may throw to stop early
 * (e.g. when the process we wait for has exited).
 * @template T
 * @param {() => Promise<T | null | undefined>} check
 * @param {{ timeoutMs: number, intervalMs?: number, what: string, abort?: () => void }} o
 * @returns {Promise<T>}
 */
async function waitFor(check, { timeoutMs, intervalMs = 100, what, abort }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    abort?.();
    const value = await check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() >= deadline)
      throw new Error(`${what} was not ready within ${Math.round(timeoutMs / 1000)}s`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * host and port of a URL such as redis://h:p or nats://h:p (first server of a comma-separated list).
 * @param {string} url
 * @param {number} defaultPort
 * @returns {{ host: string, port: number }}
 */
function hostPort(url, defaultPort) {
  const u = new URL(url.split(',')[0].trim());
  const host = u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
  return { host, port: u.port ? Number(u.port) : defaultPort };
}

module.exports = { isPortFree, freePort, converse, redisPing, natsInfo, waitFor, hostPort };
