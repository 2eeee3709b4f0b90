// Per-IP limit on password-reset requests, in this process's memory: at most MAX_RESET_REQUESTS per
// window. (accounts also caps links per account, so one address cannot be flooded from many IPs.)
export const MAX_RESET_REQUESTS = 5;
export const RESET_WINDOW_MS = 15 * 60 * 1000;
const MAX_TRACKED_ADDRESSES = 10_000;

export class ResetThrottle {
  private readonly entries = new Map<string, { count: number; windowEndsAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts a request; the seconds to wait when the address is over its limit, else 0. */
  take(address: string): number {
    const now = this.now();
    let entry = this.entries.get(address);
    if (!entry || entry.windowEndsAt <= now) {
      if (this.entries.size >= MAX_TRACKED_ADDRESSES) this.entries.delete(this.entries.keys().next().value!);
      entry = { count: 0, windowEndsAt: now + RESET_WINDOW_MS };
      this.entries.set(address, entry);
    }
    if (entry.count >= MAX_RESET_REQUESTS) return Math.ceil((entry.windowEndsAt - now) / 1000);
    entry.count += 1;
    return 0;
  }
}
