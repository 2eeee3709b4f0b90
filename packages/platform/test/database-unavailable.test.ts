import { ServiceError } from '../src';
import { databaseUnavailable, toGrpcStatus } from '../src/grpc/error-status';

describe('a database outage inside a handler', () => {
  it('is recognised by its connection errors and shutdown SQLSTATEs, not by other database errors', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      // The next query of a transaction whose connection the server just ended.
      new Error('Client has encountered a connection error and is not queryable'),
    ])
      expect(databaseUnavailable(error)).toBe(true);
    for (const error of [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      new Error('something else'),
      null,
      undefined,
    ])
      expect(databaseUnavailable(error)).toBe(false);
  });

  it('fails the call as unavailable with a retry hint, while other failures stay internal', () => {
    const outage = toGrpcStatus(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(outage.metadata.get('dss-error-code')[0]).toBe('unavailable');
    expect(outage.details).toMatch(/database is unavailable/);
    expect(toGrpcStatus(new Error('bug')).metadata.get('dss-error-code')[0]).toBe('internal');
    expect(toGrpcStatus(new ServiceError('not_found', 'x')).metadata.get('dss-error-code')[0]).toBe(
      'not_found',
    );
  });
});
