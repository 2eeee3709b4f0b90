// Per-address limit of page visits that need no sign-in (share links): at most `limit` visits a minute
// from one address, counted in this process's memory (several replicas each count on their own). It
// bounds how fast anyone can try tokens or scrape a shared diagram; the tokens' 256 random bits are what
// make guessing hopeless.
const WINDOW_MS = 60_000;
const MAX_TRACKED_ADDRESSES = 10_000;

export class VisitLimiter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a visit; the seconds to wait when the address is over its limit, else 0. */
  visit(address: string): number {
    const now = this.now();
    let window = this.windows.get(address);
    if (!window || window.endsAt <= now) {
      if (this.windows.size >= MAX_TRACKED_ADDRESSES) this.forgetExpired(now);
      window = { count: 0, endsAt: now + WINDOW_MS };
      this.windows.set(address, window);
    }
    window.count += 1;
    return window.count > this.limit ? Math.ceil((window.endsAt - now) / 1000) : 0;
  }

  private forgetExpired(now: number): void {
    for (const [address, window] of this.windows) if (window.endsAt <= now) this.windows.delete(address);
    while (this.windows.size >= MAX_TRACKED_ADDRESSES) this.windows.delete(this.windows.keys().next().value!);
  }
}
