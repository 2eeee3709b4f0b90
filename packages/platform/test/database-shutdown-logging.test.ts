import { isServerShutdown, logDatabaseError } from '../src/db';

describe('database errors while PostgreSQL shuts down', () => {
  const recorder = () => {
    const lines: { level: string; fields: object; message: string }[] = [];
    const at = (level: string) => (fields: object, message?: string) => {
      lines.push({ level, fields, message: message ?? '' });
    };
    return { lines, logger: { debug: at('debug'), warn: at('warn') } };
  };

  it('recognises the shutdown SQLSTATEs and nothing else', () => {
    expect(['57P01', '57P02', '57P03'].map((code) => isServerShutdown({ code }))).toEqual([true, true, true]);
    expect(isServerShutdown({ code: '23505' })).toBe(false);
    expect(isServerShutdown(new Error('ECONNREFUSED'))).toBe(false);
    expect(isServerShutdown(null)).toBe(false);
  });

  it('logs a shutdown at debug in one line without the stack, anything else at warn with the error', () => {
    const { lines, logger } = recorder();
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    logDatabaseError(logger, shutdown, 'idle connection failed', { schema: 'diagrams' });
    const other = Object.assign(new Error('disk full'), { code: '53100' });
    logDatabaseError(logger, other, 'idle connection failed');
    expect(lines[0]).toEqual({
      level: 'debug',
      message: 'idle connection failed',
      fields: {
        schema: 'diagrams',
        code: '57P01',
        reason: 'terminating connection due to administrator command',
      },
    });
    expect(lines[1]).toEqual({ level: 'warn', message: 'idle connection failed', fields: { err: other } });
  });
});
