import { localPath } from '../src/session';
import { SignInThrottle, MAX_FAILURES, WINDOW_MS } from '../src/sign-in-throttle';
import { Signer } from '../src/signing';

describe('localPath()', () => {
  it.each([
    ['/diagrams/1?x=2#y', '/diagrams/1?x=2#y'],
    ['/', '/'],
  ])('keeps the local path %s', (raw, expected) => {
    expect(localPath(raw)).toBe(expected);
  });

  it.each([
    'https://evil.test/',
    '//evil.test/',
    '/\\evil.test',
    '\\\\evil.test',
    'javascript:alert(1)',
    '/ok\r\nSet-Cookie: a=b',
    '',
    undefined,
    ['/a', '/b'],
  ])('turns %p into / (no open redirect)', (raw) => {
    expect(localPath(raw)).toBe('/');
  });
});

describe('Signer', () => {
  const signer = new Signer(Buffer.from('k'.repeat(48)));

  it('accepts its own signature and refuses an altered value or signature', () => {
    const signed = signer.sign('session-id');
    expect(signer.unsign(signed)).toBe('session-id');
    expect(signer.unsign(signed.replace('session-id', 'session-ie'))).toBeNull();
    expect(signer.unsign(`${signed}x`)).toBeNull();
    expect(signer.unsign('no-dot')).toBeNull();
  });

  it('refuses a signature made with another key', () => {
    const other = new Signer(Buffer.from('o'.repeat(48)));
    expect(signer.unsign(other.sign('session-id'))).toBeNull();
  });

  it('binds CSRF tokens to their subject', () => {
    const token = signer.csrfToken('session:a');
    expect(signer.checkCsrfToken('session:a', token)).toBe(true);
    expect(signer.checkCsrfToken('session:b', token)).toBe(false);
    expect(signer.checkCsrfToken('session:a', undefined)).toBe(false);
    expect(signer.checkCsrfToken('session:a', [token])).toBe(false);
  });

  it('writes a CSRF token differently each time (masked), every one valid and none forgeable by editing', () => {
    const first = signer.csrfToken('session:a');
    const second = signer.csrfToken('session:a');
    expect(first).not.toBe(second);
    expect(signer.checkCsrfToken('session:a', first)).toBe(true);
    expect(signer.checkCsrfToken('session:a', second)).toBe(true);
    const bytes = Buffer.from(first, 'base64url');
    bytes[40] = bytes[40]! ^ 1;
    expect(signer.checkCsrfToken('session:a', bytes.toString('base64url'))).toBe(false);
    expect(signer.checkCsrfToken('session:a', first.slice(0, 43))).toBe(false);
    expect(signer.checkCsrfToken('session:a', `${first}=`)).toBe(false);
  });
});

describe('SignInThrottle', () => {
  it('makes an address wait after too many failures, until the window ends', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(() => now);
    for (let attempt = 0; attempt < MAX_FAILURES - 1; attempt += 1) throttle.recordFailure('1.2.3.4');
    expect(throttle.retryAfterSeconds('1.2.3.4')).toBe(0);
    throttle.recordFailure('1.2.3.4');
    expect(throttle.retryAfterSeconds('1.2.3.4')).toBe(WINDOW_MS / 1000);
    expect(throttle.retryAfterSeconds('5.6.7.8')).toBe(0);
    now += WINDOW_MS;
    expect(throttle.retryAfterSeconds('1.2.3.4')).toBe(0);
  });

  it('forgets the failures of an address that then signs in', () => {
    const throttle = new SignInThrottle();
    for (let attempt = 0; attempt < MAX_FAILURES; attempt += 1) throttle.recordFailure('1.2.3.4');
    throttle.recordSuccess('1.2.3.4');
    expect(throttle.retryAfterSeconds('1.2.3.4')).toBe(0);
  });
});
