import { OutageLog } from '../src/outage-log';

describe('OutageLog', () => {
  describe('.failed()', () => {
    it('should log the first failure and then at most one line per quiet period, counting the rest', () => {
      const lines: { object: object; message?: string }[] = [];
      let now = 1_000;
      const log = new OutageLog(
        { warn: (object, message) => lines.push({ object, message }) },
        'down',
        30_000,
        () => now,
      );

      for (let i = 0; i < 100; i += 1) {
        log.failed({ path: `/v1/diagrams/${i}` });
        now += 100;
      }
      expect(lines).toEqual([{ object: { path: '/v1/diagrams/0' }, message: 'down' }]);

      now += 30_000;
      log.failed({ path: '/v1/diagrams' });
      expect(lines).toHaveLength(2);
      expect(lines[1]).toEqual({
        object: { path: '/v1/diagrams', failures_not_logged: 99 },
        message: 'down',
      });
    });
  });
});
