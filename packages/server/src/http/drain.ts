import { HTTPException } from "hono/http-exception";
import { closingConnection } from "./answer.js";

/**
 * Graceful shutdown for the HTTP server. Once closing starts every answer carries `Connection: close`, so no client
 * sends another request on a connection that is about to go (issue 17: none is reset). Every answer says what
 * really happened (issue 30: 503 "try again" went to sign-ups that had committed, and their retry got 409):
 * - An API request has *started* once its route's handler runs (its caller is authenticated and its input valid):
 *   only from there on can it change anything. Any other request counts as started when it arrives.
 * - When the grace passes (`giveUp`), requests not started yet are answered 503 "try again" and never start;
 *   started ones run to their end and are answered with their result, however long that takes.
 * - Only at the hard limit (`abandon`) are requests still running answered without their result: 500 saying the
 *   outcome is unknown, never "try again", since the work may have been done.
 */
export class Drain {
  private closing = false;
  private expired = false;
  /**
   * One entry per request in flight. Each request races its own small promise: racing one long-lived promise
   * would add a reaction to it per request, which holds every answer ever served.
   */
  private readonly inFlight = new Set<InFlight>();
  private idle: (() => void) | undefined;

  async serve(request: Request, handle: () => Response | Promise<Response>): Promise<Response> {
    if (this.expired) return shuttingDown();
    const entry: InFlight = { waiting: false, givenUp: false, cutShort: () => {} };
    this.inFlight.add(entry);
    entries.set(request, entry);
    try {
      // Whichever comes first, the handler's answer or one the shutdown gives in its place (a promise settles once).
      const response = await new Promise<Response>((resolve, reject) => {
        entry.cutShort = resolve;
        Promise.resolve().then(handle).then(resolve, reject);
      });
      return this.closing ? closingConnection(response) : response;
    } finally {
      this.inFlight.delete(entry);
      if (this.inFlight.size === 0) this.idle?.();
    }
  }

  /** Closing has begun: answers from now on close their connection. */
  startClosing(): void {
    this.closing = true;
  }

  /** Requests in flight, and how many of them have not started (for the shutdown's log lines). */
  counts(): { inFlight: number; notStarted: number } {
    let notStarted = 0;
    for (const entry of this.inFlight) if (entry.waiting) notStarted++;
    return { inFlight: this.inFlight.size, notStarted };
  }

  /**
   * The grace passed: requests not started are answered 503 now, and any arriving later too. Resolves once every
   * request in flight is answered: the started ones when their work is done.
   */
  giveUp(): Promise<void> {
    this.expired = true;
    for (const entry of this.inFlight) {
      if (!entry.waiting) continue;
      entry.givenUp = true;
      entry.cutShort(shuttingDown());
    }
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => (this.idle = resolve));
  }

  /** The hard limit passed: requests still running are answered now, saying their outcome is unknown. */
  abandon(): void {
    this.expired = true;
    for (const entry of this.inFlight) entry.cutShort(outcomeUnknown());
  }
}

interface InFlight {
  /** Waiting for its route: not started yet. */
  waiting: boolean;
  /** Answered 503 before it started: it must never start. */
  givenUp: boolean;
  cutShort(response: Response): void;
}

/** Each request's entry, by the Request the app sees as `c.req.raw` (no per-request context to carry it otherwise). */
const entries = new WeakMap<Request, InFlight>();

/** An API request waits for its route (authentication, body, validation) before it starts (app.ts). */
export function waitForRoute(request: Request): void {
  const entry = entries.get(request);
  if (entry && !entry.givenUp) entry.waiting = true;
}

/**
 * The request's route begins its work (http/route.ts, just before the handler): from here on it is finished and
 * answered with its result. A request already answered 503 is stopped here, so that answer stays true.
 */
export function beginWork(request: Request): void {
  const entry = entries.get(request);
  if (!entry) return;
  if (entry.givenUp) throw new HTTPException(503, { res: shuttingDown() });
  entry.waiting = false;
}

const SHUTTING_DOWN = "The server is shutting down. Please try again.";

function shuttingDown(): Response {
  return new Response(SHUTTING_DOWN, {
    status: 503,
    headers: { "content-type": "text/plain; charset=utf-8", "retry-after": "1", connection: "close" },
  });
}

function outcomeUnknown(): Response {
  return new Response("The server shut down before this request finished. It may or may not have taken effect.", {
    status: 500,
    headers: { "content-type": "text/plain; charset=utf-8", connection: "close" },
  });
}
