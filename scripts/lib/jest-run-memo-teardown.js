'use strict';
// jest's globalTeardown: removes the run's memo directory (scripts/lib/jest-run-memo.js).
const fs = require('node:fs');

module.exports = async function tearDownRunMemo() {
  const dir = process.env.DSS_TEST_RUN_MEMO;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
};
