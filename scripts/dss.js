#!/usr/bin/env node
'use strict';
// Entry of the operator CLI (`npm run dss -- <command>`, `npx dss <command>`); the commands live in
// packages/cli, built by `npm run build`.
const { runCli } = require('../packages/cli/dist');

runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  readStdin: async () => {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  },
}).then((code) => {
  process.exitCode = code;
});
