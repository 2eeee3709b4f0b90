// Per-IP throttle of failed sign-ins, kept in this process's memory: after MAX_FAILURES failures within
// the window an address must wait until the window ends. Several web replicas each count on their own,
// which multiplies the allowance by the replica count; the scrypt cost per attempt is the second brake.
export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60 * 1000;
const MAX_TRACKED_ADDRESSES = 10_000;

interface Entry {
  failures: number;
  windowEndsAt: number;
}

export class SignInThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds the address must still wait, or 0 when it may try. */
  retryAfterSeconds(address: string): number {
    const entry = this.current(address);
    if (!entry || entry.failures < MAX_FAILURES) return 0;
    return Math.ceil((entry.windowEndsAt - this.now()) / 1000);
  }

  recordFailure(address: string): void {
    const entry = this.current(address);
    if (entry) entry.failures += 1;
    else {
      if (this.entries.size >= MAX_TRACKED_ADDRESSES) this.forgetExpired();
      this.entries.set(address, { failures: 1, windowEndsAt: this.now() + WINDOW_MS });
    }
  }

  recordSuccess(address: string): void {
    this.entries.delete(address);
  }

  private current(address: string): Entry | undefined {
    const entry = this.entries.get(address);
    if (entry && entry.windowEndsAt <= this.now()) {
      this.entries.delete(address);
      return undefined;
    }
    return entry;
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [address, entry] of this.entries) if (entry.windowEndsAt <= now) this.entries.delete(address);
    // Still full (an attack from many addresses): drop the oldest rather than grow without bound.
    while (this.entries.size >= MAX_TRACKED_ADDRESSES) this.entries.delete(this.entries.keys().next().value!);
  }
}
