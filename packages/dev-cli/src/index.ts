export { type DevCliIo, runDevCli } from './cli';
