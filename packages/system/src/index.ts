export { type RunningSystem, SHUTDOWN_GRACE_MS, type SystemOptions, startSystem } from './system';
export { startTestSystem, type TestSystem } from './testing';
export { type TeamRole, type TestMember, type TestMemberOptions, TestPeople } from './test-people';
export { twoTableShopPatch } from './test-patches';
