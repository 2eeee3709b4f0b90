// A sleep that a notification can cut short. A notification that arrives while nobody sleeps is kept,
// so the next wait returns at once: the relay never misses an event committed while it was busy.

export class Wakeup {
  private pending = false;
  private wake: (() => void) | null = null;

  notify(): void {
    if (this.wake) this.wake();
    else this.pending = true;
  }

  /** Resolves after `ms`, or earlier on notify(). */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
