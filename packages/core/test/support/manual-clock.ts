import type { Clock } from "../../src/clock.js";

/**
 * A clock the test drives: `sleep` records how long it was asked to wait and moves time forward at once
 * (so retries run without real waiting); timers fire when `advance` passes their time.
 */
export class ManualClock implements Clock {
  readonly sleeps: number[] = [];
  private timers: Array<{ at: number; callback: () => void }> = [];

  constructor(private current = Date.now()) {}

  now(): number {
    return this.current;
  }

  async sleep(millis: number): Promise<void> {
    this.sleeps.push(millis);
    this.current += millis;
  }

  setTimer(callback: () => void, millis: number): () => void {
    const timer = { at: this.current + millis, callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward, firing the timers that fall due on the way. */
  advance(millis: number): void {
    const until = this.current + millis;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = due.at;
      due.callback();
    }
    this.current = until;
  }
}
