export { type CliIo, runCli } from './cli';
