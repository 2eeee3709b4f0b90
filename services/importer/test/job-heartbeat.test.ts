import { JOB_HEARTBEAT_MS, jobHeartbeatMs } from '../src/server';

describe('the import job heartbeat', () => {
  it('should send three in-progress acks within any ack wait, so a live worker keeps its job', () => {
    for (const ackWait of [100, 5_000, 15_000, 60_000, 3_600_000])
      expect(jobHeartbeatMs(ackWait) * 3).toBeLessThanOrEqual(ackWait);
  });

  it('should beat every 5 s when the ack wait is long', () => {
    expect(jobHeartbeatMs(60_000)).toBe(JOB_HEARTBEAT_MS);
  });
});
