// Query parameters, validated: a bad one answers 422 invalid_request naming the parameter.
import { ServiceError } from '@dss/platform';
import type { Request } from 'express';

export function optionalQueryString(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidQuery(name, 'must be given once, as a plain value');
  return value;
}

export function optionalQueryEnum<T extends string>(
  req: Request,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = optionalQueryString(req, name);
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw invalidQuery(name, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function invalidQuery(name: string, problem: string): ServiceError {
  return new ServiceError('invalid_request', `query parameter ${name} ${problem}`, {
    errors: [{ path: name, message: problem }],
  });
}
