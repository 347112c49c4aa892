/** Failures that are not known errors of the protocol: the network, the browser being offline, odd statuses. */

/** The server could not be reached after every retry. `cause` is the last failure. */
export class NetworkError extends Error {
  constructor(message: string, options: { cause: unknown; attempts: number }) {
    super(message, { cause: options.cause });
    this.name = "NetworkError";
    this.attempts = options.attempts;
  }
  readonly attempts: number;
}

/** The request failed while the browser reports it has no connection (navigator.onLine is false). */
export class OfflineError extends NetworkError {
  constructor(options: { cause: unknown; attempts: number }) {
    super("You are offline. Please check your internet connection and try again.", options);
    this.name = "OfflineError";
  }
}

/** A response that is neither a success nor a known error (e.g. a 500, or a 404 from an unknown route). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly url: string,
  ) {
    super(`Request to ${url} failed with status ${status}: ${body}`);
    this.name = "HttpStatusError";
  }
}

/** The server broke the protocol, e.g. an x-stack-known-error header that differs from the body's code. */
export class ProtocolViolationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProtocolViolationError";
  }
}
