export { type RunningSystem, type SystemOptions, startSystem } from './system';
export { startTestSystem, type TestSystem } from './testing';
