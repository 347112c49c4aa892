import { sql } from "kysely";
import type { Logger } from "pino";
import type { ChangeFeed } from "../db/change-feed.js";
import type { Db } from "../db/connect.js";
import { RETRY_DELAYS_MS } from "./webhook-delivery.js";

/**
 * The hand-off to a real Svix server (issue 18; LATCHKEY_SVIX_URL + LATCHKEY_SVIX_API_KEY): events are still written
 * to the outbox in the transaction of their change (services/webhook-outbox.ts), and every process's forwarder
 * claims due messages with `FOR UPDATE SKIP LOCKED` and creates them in Svix — in the app whose uid is the project
 * id, made with the message if it does not exist yet — exactly as the official `svix` client's
 * `message.create(projectId, { eventType, payload, eventId, application })` does. Svix then signs, delivers and
 * retries. The message id is the idempotency key and the `eventId`, so a forward repeated after a lost answer
 * (or a process that died mid-request) creates nothing twice. A refused or failed forward is retried on the
 * delivery schedule, then every 10 hours: Svix being down loses nothing.
 */

export interface SvixServer {
  url: string;
  apiKey: string;
}

const REQUEST_TIMEOUT_MS = 15_000;
const LEASE_SECONDS = 60;
const BATCH_SIZE = 20;
const IDLE_POLL_MS = 10_000;

interface DueMessage {
  id: string;
  project_id: string;
  project_name: string;
  event_type: string;
  payload: unknown;
  forward_attempts: number;
}

export function startSvixForwarder(db: Db, svix: SvixServer, log: Logger, feed: ChangeFeed): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const shutdown = new AbortController();

  const wake = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = run().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        wake();
      }
    });
  };

  const run = async (): Promise<void> => {
    let nextInMs = IDLE_POLL_MS;
    try {
      for (;;) {
        const claimed = await claim(db);
        await Promise.all(claimed.map((message) => forward(message)));
        if (claimed.length < BATCH_SIZE || stopped) break;
      }
      const next = await sql<{ ms: number | null }>`
        select (extract(epoch from min(forward_due_at) - now()) * 1000)::float8 as ms from webhook_messages where forward_due_at is not null`.execute(db);
      nextInMs = next.rows[0]?.ms ?? IDLE_POLL_MS;
    } catch (err) {
      if (!stopped) log.warn({ err }, "webhook forwarding failed to reach the database; will retry");
    }
    if (stopped) return;
    timer = setTimeout(wake, Math.min(Math.max(nextInMs, 0), IDLE_POLL_MS));
    timer.unref();
  };

  const forward = async (message: DueMessage): Promise<void> => {
    let problem: string | undefined;
    try {
      problem = await createInSvix(svix, message, shutdown.signal);
    } catch (error) {
      // Shutting down: the lease runs out and the next process forwards it (the idempotency key keeps it single).
      if (shutdown.signal.aborted) return;
      problem = (error as Error).message;
    }
    const attempts = message.forward_attempts + 1;
    const retryInMs = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1]!;
    await db
      .updateTable("webhook_messages")
      .set(
        problem === undefined
          ? { forward_due_at: null, forwarded_at: sql<Date>`now()`, forward_attempts: attempts }
          : { forward_due_at: sql<Date>`now() + make_interval(secs => ${retryInMs / 1000})`, forward_attempts: attempts },
      )
      .where("id", "=", message.id)
      .execute()
      .catch((err: unknown) => log.warn({ err, messageId: message.id }, "could not record a webhook forward"));
    if (problem !== undefined) log.warn({ messageId: message.id, attempts, problem }, "the Svix server did not take a webhook message; will retry");
  };

  feed.subscribe((event) => {
    if (event.type === "reset" || (event.kind === "webhook" && event.id === "forward")) wake();
  });
  wake();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      shutdown.abort();
      await running;
    },
  };
}

async function claim(db: Db): Promise<DueMessage[]> {
  const result = await sql<DueMessage>`
    update webhook_messages m
    set forward_due_at = now() + make_interval(secs => ${LEASE_SECONDS})
    from projects p
    where p.id = m.project_id and m.id in (
      select due.id from webhook_messages due
      where due.forward_due_at <= now()
      order by due.forward_due_at
      limit ${BATCH_SIZE}
      for update skip locked
    )
    returning m.id, m.project_id, p.display_name as project_name, m.event_type, m.payload, m.forward_attempts`.execute(db);
  return result.rows;
}

/** One `POST /api/v1/app/{project}/msg`; undefined when Svix took it (or already had it), else why not. */
async function createInSvix(svix: SvixServer, message: DueMessage, shutdown: AbortSignal): Promise<string | undefined> {
  const payload = typeof message.payload === "string" ? JSON.parse(message.payload) : message.payload;
  // A controller of its own rather than AbortSignal.any: every signal made to follow the process-long shutdown
  // signal would stay listed on it (as in services/webhook-delivery.ts).
  const controller = new AbortController();
  const stop = () => controller.abort();
  shutdown.addEventListener("abort", stop, { once: true });
  const timer = setTimeout(stop, REQUEST_TIMEOUT_MS);
  try {
    return await postMessage(svix, message, payload, controller.signal);
  } finally {
    clearTimeout(timer);
    shutdown.removeEventListener("abort", stop);
  }
}

async function postMessage(svix: SvixServer, message: DueMessage, payload: unknown, signal: AbortSignal): Promise<string | undefined> {
  // `with_content=false`: Svix need not echo the payload back (the official client asks the same).
  const response = await fetch(`${svix.url}/api/v1/app/${encodeURIComponent(message.project_id)}/msg?with_content=false`, {
    method: "POST",
    headers: {
      accept: "application/json",
      authorization: `Bearer ${svix.apiKey}`,
      "content-type": "application/json",
      "idempotency-key": message.id,
      "user-agent": "Latchkey-Webhooks/1",
    },
    body: JSON.stringify({ eventType: message.event_type, eventId: message.id, payload, application: { name: message.project_name, uid: message.project_id } }),
    redirect: "manual",
    signal,
  });
  const body = await response.text().catch(() => "");
  // 409: a message with this eventId exists already, from an earlier forward whose answer was lost.
  if ((response.status >= 200 && response.status < 300) || response.status === 409) return undefined;
  return `${response.status} ${body.slice(0, 256)}`;
}

/**
 * A token for the project's app portal on the Svix server (`POST /webhooks/svix-token` in hand-off mode), as the
 * official client's `authentication.appPortalAccess(projectId, { application })` asks for it; the app is made if
 * it does not exist yet. Undefined when Svix does not answer with one.
 */
export async function svixAppPortalToken(svix: SvixServer, project: { id: string; displayName: string }): Promise<string | undefined> {
  const response = await fetch(`${svix.url}/api/v1/auth/app-portal-access/${encodeURIComponent(project.id)}`, {
    method: "POST",
    headers: { accept: "application/json", authorization: `Bearer ${svix.apiKey}`, "content-type": "application/json", "idempotency-key": `auto_${crypto.randomUUID()}`, "user-agent": "Latchkey-Webhooks/1" },
    body: JSON.stringify({ application: { name: project.displayName, uid: project.id } }),
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) return undefined;
  const answer = (await response.json().catch(() => undefined)) as { token?: unknown } | undefined;
  return typeof answer?.token === "string" ? answer.token : undefined;
}
