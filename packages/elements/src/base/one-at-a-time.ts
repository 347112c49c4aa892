/**
 * An element's actions, one after another. An action asked for while another one runs (its reload still on the
 * way, the user already on the next row's button) waits for it and then runs; it was dropped before, after the
 * user had confirmed it.
 */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run(action: () => Promise<void>): Promise<void> {
    const next = this.last.then(action);
    this.last = next.catch(() => undefined);
    return next;
  }
}
