/**
 * A start-up failure the operator can fix (a data dir in use, unwritable or foreign, a database that cannot
 * be reached): `npm start` prints its message — one line naming the setting or path and what to do — and
 * exits non-zero, without a stack trace.
 */
export class StartupError extends Error {
  override readonly name = "StartupError";
}
