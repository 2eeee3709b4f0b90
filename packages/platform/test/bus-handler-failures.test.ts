import { MemoryEventBus } from '../src/bus/memory-bus';
import { ServiceError } from '../src/errors';

/** A logger that keeps what it is given. */
function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at =
    (level: string) =>
    (fields: object, message = '') =>
      void lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a bus handler that fails', () => {
  it('is logged once, without a stack, when every message meets the same database outage', async () => {
    const { lines, logger } = recordingLogger();
    const bus = new MemoryEventBus({ logger });
    await bus.subscribe('diagrams.>', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    for (let i = 0; i < 20; i++) await bus.publish('diagrams.changed', { i });
    await settle();
    await bus.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      fields: { reason: 'connect ECONNREFUSED 127.0.0.1:5432' },
    });
    expect(lines[0]!.fields).not.toHaveProperty('err');
  });

  it('is logged once when another service answers unavailable, and with its stack each time for any other error', async () => {
    const { lines, logger } = recordingLogger();
    const bus = new MemoryEventBus({ logger });
    let calls = 0;
    await bus.subscribe('diagrams.>', async () => {
      calls += 1;
      if (calls <= 3) throw new ServiceError('unavailable', 'diagrams unavailable');
      throw new Error('a bug');
    });
    for (let i = 0; i < 5; i++) await bus.publish('diagrams.changed', { i });
    await settle();
    await bus.close();
    expect(lines.map((line) => [line.level, 'err' in line.fields])).toEqual([
      ['warn', false],
      ['error', true],
      ['error', true],
    ]);
  });
});
