'use strict';
// jest's globalSetup: a directory for the values computed once per test run (memoForRun of
// @dss/platform/testing), named to the test files in DSS_TEST_RUN_MEMO and removed by the teardown below
// when the run ends. Workers start after the set-up, so they inherit the variable.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = async function setUpRunMemo() {
  process.env.DSS_TEST_RUN_MEMO = fs.mkdtempSync(path.join(os.tmpdir(), 'dss-test-run-'));
};
