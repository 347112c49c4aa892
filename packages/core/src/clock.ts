/**
 * Time as the library sees it. Everything that waits or reads the time goes through a Clock, so tests can
 * drive retries, token expiry and store expiry without real waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `millis`. */
  sleep(millis: number): Promise<void>;
  /** Runs `callback` after `millis`; the returned function cancels it. */
  setTimer(callback: () => void, millis: number): () => void;
}

/** The real clock. Timers are unref'd on Node so a pending store drop never keeps a process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (millis) => new Promise((resolve) => setTimeout(resolve, millis)),
  setTimer(callback, millis) {
    const handle = setTimeout(callback, millis) as unknown as { unref?: () => void };
    handle.unref?.();
    return () => clearTimeout(handle as unknown as ReturnType<typeof setTimeout>);
  },
};
