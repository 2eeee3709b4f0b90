'use strict';
// Where the repository and embedded mode's data live. DSS_DATA_DIR is a fixed configuration name (see
// ARCHITECTURE.md); a relative value is taken relative to the repository root, not the current directory, so
// `npm start` run from a sub-folder still finds the same data.
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..', '..');

/**
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string} absolute path of the data directory
 */
function dataDir(env = process.env) {
  return path.resolve(repoRoot, env.DSS_DATA_DIR || '.data');
}

/**
 * Shortens a path for messages: relative to the repository root when inside it.
 * @param {string} p
 * @returns {string}
 */
function displayPath(p) {
  const rel = path.relative(repoRoot, p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}

module.exports = { repoRoot, dataDir, displayPath };
