// The process entry of `dss-dev` (bin/dss-dev.js loads the bundle built from this file, or this file
// compiled, in a checkout).
import { runDevCli } from './cli';

runDevCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
