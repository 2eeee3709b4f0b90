// A dependency outage (a service or its database out of reach) makes every request fail the same way for as
// long as it lasts. Logging each failure, with its stack, buries the one line an operator needs under
// hundreds; this logs the first failure of an outage and then at most one line per quiet period, with how
// many failures it did not log in between.

export interface OutageLogger {
  warn(object: object, message?: string): void;
}

export class OutageLog {
  private loggedAt = Number.NEGATIVE_INFINITY;
  private unlogged = 0;

  constructor(
    private readonly logger: OutageLogger,
    private readonly message: string,
    private readonly quietMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** One failure caused by the outage; `details` name it (no error object: its stack says nothing new). */
  failed(details: Record<string, unknown>): void {
    const now = this.now();
    if (now - this.loggedAt < this.quietMs) {
      this.unlogged += 1;
      return;
    }
    const summary = this.unlogged > 0 ? { failures_not_logged: this.unlogged } : {};
    this.logger.warn({ ...details, ...summary }, this.message);
    this.loggedAt = now;
    this.unlogged = 0;
  }
}
