import { DssApiError } from '@dss/client';
import { resultOfError } from '../src/tool-results';

const textOf = (error: unknown) => {
  const { result } = resultOfError(error);
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
};

describe('resultOfError()', () => {
  it('should list the paths of unsupported_field one per line', () => {
    const error = new DssApiError(422, {
      code: 'unsupported_field',
      message: 'positions are computed',
      paths: ['tables[0].left', 'tables[0].top'],
    });
    expect(textOf(error).split('\n')).toEqual([
      'unsupported_field: positions are computed',
      'tables[0].left: remove it (positions are computed on create)',
      'tables[0].top: remove it (positions are computed on create)',
    ]);
  });

  it('should add the plan limit and the Retry-After seconds', () => {
    const limit = new DssApiError(422, {
      code: 'plan_limit',
      message: 'cap',
      limit_type: 'tables',
      limit: 10,
      requested: 12,
    });
    expect(textOf(limit)).toBe('plan_limit: cap\nlimit_type: tables, limit 10, requested 12');
    const limited = new DssApiError(429, { code: 'rate_limited', message: 'slow down' }, 7);
    expect(textOf(limited)).toBe('rate_limited: slow down\nretry after 7 seconds');
  });

  it('should not show the message of an unexpected error', () => {
    const { result, code } = resultOfError(new Error('secret internals'));
    expect(code).toBe('internal');
    expect(JSON.stringify(result)).not.toContain('secret internals');
  });
});
