// Expiry choices of a personal access token (spec, Authentication 3): 30 days, 90 days, 1 year or
// 2 years; 1 year by default. Operators may set an explicit timestamp instead.
import { ServiceError } from '@dss/platform';

const DAY_MS = 24 * 60 * 60 * 1000;
export const EXPIRY_CHOICES: Readonly<Record<string, number>> = {
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
  '1y': 365 * DAY_MS,
  '2y': 730 * DAY_MS,
};
export const DEFAULT_EXPIRY = '1y';

export function resolveExpiry(expiresIn: string, expiresAt: string, now: Date): Date {
  if (expiresAt) {
    const at = new Date(expiresAt);
    if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(expiresAt)) {
      throw new ServiceError(
        'invalid_request',
        `expires_at must be an ISO 8601 timestamp, got "${expiresAt}"`,
      );
    }
    return at;
  }
  const choice = expiresIn || DEFAULT_EXPIRY;
  const duration = EXPIRY_CHOICES[choice];
  if (duration === undefined) {
    throw new ServiceError(
      'invalid_request',
      `expires_in must be one of ${Object.keys(EXPIRY_CHOICES).join(', ')}, got "${choice}"`,
    );
  }
  return new Date(now.getTime() + duration);
}
