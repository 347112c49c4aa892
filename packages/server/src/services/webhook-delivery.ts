import { setMaxListeners } from "node:events";
import http from "node:http";
import https from "node:https";
import { sql } from "kysely";
import type { Logger } from "pino";
import type { ChangeFeed } from "../db/change-feed.js";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { signWebhook } from "../crypto/webhook-signatures.js";
import { handBackDeliveries, nextDueInMs, recordAttempts, type AttemptRecord } from "./webhook-attempt-records.js";
import { DISABLE_AFTER_FAILING_DAYS, mailEndpointDisabled } from "./webhook-endpoint-health.js";
import { openEndpointSecret } from "./webhook-endpoints.js";
import { payloadForEndpoint } from "./webhook-payload-versions.js";
import { privateLiteralTarget, publicOnlyLookup } from "./webhook-targets.js";

/**
 * The delivery worker every server process runs (issue 18): it claims due deliveries from the outbox
 * (services/webhook-outbox.ts) with `FOR UPDATE SKIP LOCKED`, so processes sharing a database share the work,
 * and POSTs each, signed per Standard Webhooks. A claim is a lease: the row's next attempt moves past the
 * request timeout, so a process that dies mid-delivery leaves it to be delivered again (at least once, with
 * the same `webhook-id`). New messages wake every process through the change feed (`webhook:due`). A worker
 * fans a message out into its deliveries (one per endpoint that takes it) as it claims them; a batch is claimed in
 * one statement, sent at once, and its attempts recorded in one more (services/webhook-attempt-records.ts).
 */

/** Waits before the 2nd, 3rd … 8th attempt (Svix's schedule); after the 8th fails, the delivery has failed. */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const REQUEST_TIMEOUT_MS = 15_000;
// Longer than a request may take, so a live worker's claim never runs out under it.
const LEASE_SECONDS = 60;
const BATCH_SIZE = 20;
// Retries come due without a notification: a worker with nothing due looks again at least this often.
const IDLE_POLL_MS = 10_000;
// How long a worker woken by new events waits before it claims them (see DeliveryWorker.soon).
const COALESCE_MS = 15;
const BODY_EXCERPT_CHARS = 1024;
// Endpoints whose opened secrets a worker keeps (see signingSecrets); past that, it starts over.
const OPENED_SECRETS_KEPT = 1_000;

interface ClaimedDelivery {
  message_id: string;
  endpoint_id: string;
  attempts: number;
  /** The message's payload in the shapes the endpoint asks for (services/webhook-payload-versions.ts). */
  payload: unknown;
  url: string;
  sealed_secret: Uint8Array;
  sealing_key_id: string;
  /** The rotated-out secret while it still signs (services/webhook-endpoints.ts), else null. */
  previous_sealed_secret: Uint8Array | null;
  previous_sealing_key_id: string | null;
  /** The endpoint's own headers (services/webhook-endpoint-headers.ts). */
  headers: Record<string, string> | string;
}

type Outcome = { status: number | null; body: string; durationMs: number };

/** This process's recorded attempts, for `/metrics` (http/metrics.ts): answered 2xx, or not (any other answer, none). */
export const webhookAttempts = { succeeded: 0, failed: 0 };

/** ±10 %, so that many deliveries failing together do not all come back in the same second. */
const jittered = (ms: number) => Math.round(ms * (0.9 + Math.random() * 0.2));

export interface WebhookDelivery {
  stop(): Promise<void>;
  /**
   * Holds new batches until resume (a batch being sent finishes): for a bench that measures the write path
   * without the delivery beside it (bench/webhooks.mjs). Not a setting: a held worker still has its deliveries due.
   */
  pause(): Promise<void>;
  resume(): void;
}

export function startWebhookDelivery(db: Db, env: Env, log: Logger, feed: ChangeFeed): WebhookDelivery {
  const worker = new DeliveryWorker(db, env, log);
  feed.subscribe((event) => {
    // A reset may have swallowed a `webhook:due`: look once more.
    // (`webhook:forward` is the Svix forwarder's: services/webhook-svix-forwarder.ts.)
    if (event.type === "reset" || (event.kind === "webhook" && event.id !== "forward")) worker.soon();
  });
  worker.wake();
  return { stop: () => worker.stop(), pause: () => worker.pause(), resume: () => worker.resume() };
}

class DeliveryWorker {
  private running: Promise<void> | undefined;
  private again = false;
  private coalescing = false;
  private paused = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly shutdown = new AbortController();
  private readonly openedSecrets = new Map<string, string[] | undefined>();

  constructor(
    private readonly db: Db,
    private readonly env: Env,
    private readonly log: Logger,
  ) {
    // Each request of a batch listens for the shutdown (see post): a full batch is more than Node's default 10.
    setMaxListeners(BATCH_SIZE + 1, this.shutdown.signal);
  }

  /**
   * New messages or deliveries were committed. The notification comes back while the request that wrote them is still
   * answering (it waits for its own change to come back, db/change-feed.ts `sync`), so claiming at once would
   * run the delivery on the event loop and database connections that answer needs. A short wait lets the
   * answer go first, and gathers the events of the requests around it into one batch (one claim and one
   * record for them all). Several notifications in the window start one claim.
   */
  soon(): void {
    if (this.stopped || this.coalescing) return;
    if (this.running || this.paused) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.coalescing = true;
    this.timer = setTimeout(() => {
      this.coalescing = false;
      this.wake();
    }, COALESCE_MS);
    this.timer.unref();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running || this.paused) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.coalescing = false;
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async pause(): Promise<void> {
    this.paused = true;
    clearTimeout(this.timer);
    this.coalescing = false;
    await this.running;
  }

  resume(): void {
    this.paused = false;
    this.again = false;
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // Requests in flight end now; their deliveries are handed back (see deliverBatch) for the next process.
    this.shutdown.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    let nextInMs = IDLE_POLL_MS;
    try {
      for (;;) {
        const claimed = await this.claim();
        const recorded = await this.deliverBatch(claimed);
        if (!claimed.more || this.stopped) {
          // The batch's record said when the next delivery is due; without one, a look of its own.
          nextInMs = recorded ? (recorded.nextDueInMs ?? IDLE_POLL_MS) : await this.untilNextDue();
          break;
        }
      }
    } catch (err) {
      if (!this.stopped) this.log.warn({ err }, "webhook delivery failed to reach the database; will retry");
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.wake(), Math.min(Math.max(nextInMs, 0), IDLE_POLL_MS));
    this.timer.unref();
  }

  /**
   * One statement: the messages still to fan out become deliveries, one per enabled endpoint that takes the
   * type, inserted already claimed by this worker; and the due deliveries are claimed. Both with `SKIP LOCKED`, so
   * workers of several processes take disjoint sets. `more` when a limit was reached (there may be more to do).
   */
  private async claim(): Promise<{ token: string; deliveries: ClaimedDelivery[]; more: boolean }> {
    const token = crypto.randomUUID();
    const lease = sql`now() + make_interval(secs => ${LEASE_SECONDS})`;
    const result = await sql<ClaimedDelivery & { fanned_out: number; due: boolean }>`
      with fanned as (
        update webhook_messages m set fan_out_pending = false
        where m.id in (
          select pick.id from webhook_messages pick where pick.fan_out_pending
          order by pick.created_at
          limit ${BATCH_SIZE}
          for update skip locked
        )
        returning m.id, m.project_id, m.event_type, m.created_at
      ), fresh as (
        -- The endpoints as the event was written: one created since does not get it (it was not there to listen).
        -- A recovery (services/webhook-endpoint-recovery.ts) may have made one of them already: that one stays its own.
        insert into webhook_deliveries (message_id, endpoint_id, next_attempt_at, claim_token)
        select fanned.id, e.id, ${lease}, ${token}::uuid from fanned
        join webhook_endpoints e on e.project_id = fanned.project_id and not e.disabled and e.created_at <= fanned.created_at
          and (e.filter_types is null or fanned.event_type = any(e.filter_types))
        on conflict do nothing
        returning message_id, endpoint_id, attempts, false as due
      ), due as (
        update webhook_deliveries d
        set claim_token = ${token}, next_attempt_at = ${lease}, updated_at = now()
        where (d.message_id, d.endpoint_id) in (
          -- A disabled endpoint's deliveries wait, pending, until it is enabled again.
          select due.message_id, due.endpoint_id from webhook_deliveries due
          join webhook_endpoints target on target.id = due.endpoint_id and not target.disabled
          where due.status = 'pending' and due.next_attempt_at <= now()
          order by due.next_attempt_at
          limit ${BATCH_SIZE}
          for update of due skip locked
        )
        returning d.message_id, d.endpoint_id, d.attempts, true as due
      ), claimed as (
        select * from fresh union all select * from due
      )
      select c.message_id, c.endpoint_id, c.attempts, c.due, (select count(*)::int from fanned) as fanned_out,
        ${payloadForEndpoint("m", "e")} as payload, e.url, e.headers, e.sealed_secret, e.sealing_key_id,
        case when e.previous_secret_expires_at > now() then e.previous_sealed_secret end as previous_sealed_secret,
        case when e.previous_secret_expires_at > now() then e.previous_sealing_key_id end as previous_sealing_key_id
      from claimed c
      join webhook_messages m on m.id = c.message_id
      join webhook_endpoints e on e.id = c.endpoint_id`.execute(this.db);
    const rows = result.rows;
    const more = rows.filter((row) => row.due).length >= BATCH_SIZE || (rows[0]?.fanned_out ?? 0) >= BATCH_SIZE;
    return { token, deliveries: rows, more };
  }

  private async untilNextDue(): Promise<number> {
    const result = await sql<{ ms: number | null }>`select ${nextDueInMs} as ms`.execute(this.db);
    return result.rows[0]?.ms ?? IDLE_POLL_MS;
  }

  /**
   * Sends the batch's deliveries at once, then records their attempts together; one statement for them all.
   * Returns when the next delivery is due as that record saw it, with the batch's own retries; undefined when
   * nothing was recorded.
   */
  private async deliverBatch({ token, deliveries }: { token: string; deliveries: ClaimedDelivery[] }): Promise<{ nextDueInMs: number | null } | undefined> {
    if (deliveries.length === 0) return undefined;
    // A delivery that cannot even be sent (an unreadable payload, say) is a failed attempt, not a lost batch.
    const outcomes = await Promise.all(deliveries.map((delivery) => this.send(delivery).catch((error: Error): Outcome => ({ status: null, body: error.message, durationMs: 0 }))));
    const records: AttemptRecord[] = [];
    const interrupted: ClaimedDelivery[] = [];
    deliveries.forEach((delivery, i) => {
      const outcome = outcomes[i];
      if (outcome) records.push(attemptRecord(delivery, outcome));
      else interrupted.push(delivery);
    });
    // Shutting down mid-request: those are due again at once, for whichever process runs next.
    await handBackDeliveries(this.db, token, interrupted.map(deliveryKey)).catch(() => {});
    let recorded;
    try {
      recorded = await recordAttempts(this.db, token, records);
    } catch (err) {
      // Not recorded, the batch stays claimed until its lease runs out, and is then sent again.
      this.log.warn({ err, messageIds: records.map((r) => r.messageId) }, "could not record webhook attempts");
      return undefined;
    }
    if (!recorded) return undefined;
    for (const record of records) {
      if (record.status === "succeeded") webhookAttempts.succeeded++;
      else webhookAttempts.failed++;
      if (record.status === "failed") this.log.warn({ messageId: record.messageId, endpointId: record.endpointId }, "webhook delivery failed after the last retry");
    }
    for (const endpoint of recorded.disabled) {
      this.log.warn({ endpointId: endpoint.id, projectId: endpoint.projectId }, `webhook endpoint disabled after ${DISABLE_AFTER_FAILING_DAYS} days of failures`);
      await mailEndpointDisabled({ db: this.db, env: this.env, log: this.log }, endpoint);
    }
    const retries = records.flatMap((r) => (r.retryInMs === null ? [] : [r.retryInMs]));
    const soonest = [recorded.nextDueInMs, ...retries].filter((ms): ms is number => ms !== null);
    return { nextDueInMs: soonest.length > 0 ? Math.min(...soonest) : null };
  }

  /** One signed POST; undefined when the request was cut short by a shutdown (not an attempt). */
  private async send(delivery: ClaimedDelivery): Promise<Outcome | undefined> {
    const body = JSON.stringify(typeof delivery.payload === "string" ? JSON.parse(delivery.payload) : delivery.payload);
    const secrets = this.signingSecrets(delivery);
    if (!secrets) return { status: null, body: "The endpoint's secret cannot be opened with the server secret (LATCHKEY_SERVER_SECRET changed?).", durationMs: 0 };
    const started = performance.now();
    try {
      const own = typeof delivery.headers === "string" ? (JSON.parse(delivery.headers) as Record<string, string>) : delivery.headers;
      // The endpoint's headers cannot name the signing ones (refused when set); spread first all the same.
      const headers = { ...own, ...signedHeaders(secrets, delivery.message_id, body) };
      const response = await post(new URL(delivery.url), headers, body, this.env.webhooksAllowPrivateTargets, this.shutdown.signal);
      return { ...response, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      if (this.shutdown.signal.aborted) return undefined;
      return { status: null, body: (error as Error).message, durationMs: Math.round(performance.now() - started) };
    }
  }

  /**
   * The endpoint's current secret, and the rotated-out one while it still signs; undefined when they cannot be
   * opened. Opening is a key derivation and a decryption, a fifth of the worker's own time per delivery: kept per
   * sealed value, so a rotation (new sealed bytes) is seen at the next claim.
   */
  private signingSecrets(delivery: ClaimedDelivery): string[] | undefined {
    const sealed = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString("base64") : "");
    const key = `${delivery.endpoint_id} ${delivery.sealing_key_id} ${sealed(delivery.sealed_secret)} ${delivery.previous_sealing_key_id ?? ""} ${sealed(delivery.previous_sealed_secret)}`;
    if (this.openedSecrets.has(key)) return this.openedSecrets.get(key);
    const secret = openEndpointSecret(this.env, delivery.endpoint_id, { sealed: delivery.sealed_secret, keyId: delivery.sealing_key_id });
    const previous =
      secret && delivery.previous_sealed_secret && delivery.previous_sealing_key_id
        ? openEndpointSecret(this.env, delivery.endpoint_id, { sealed: delivery.previous_sealed_secret, keyId: delivery.previous_sealing_key_id }, "previous")
        : undefined;
    const opened = secret ? (previous ? [secret, previous] : [secret]) : undefined;
    if (this.openedSecrets.size >= OPENED_SECRETS_KEPT) this.openedSecrets.clear();
    this.openedSecrets.set(key, opened);
    return opened;
  }
}

const deliveryKey = (delivery: ClaimedDelivery) => ({ messageId: delivery.message_id, endpointId: delivery.endpoint_id });

/** The attempt's record: 2xx is a success; after a failure, the next attempt per the schedule, or none after the last. */
function attemptRecord(delivery: ClaimedDelivery, outcome: Outcome): AttemptRecord {
  const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const attempts = delivery.attempts + 1;
  const status = succeeded ? "succeeded" : attempts >= MAX_ATTEMPTS ? "failed" : "pending";
  return {
    ...deliveryKey(delivery),
    status,
    retryInMs: status === "pending" ? jittered(RETRY_DELAYS_MS[attempts - 1]!) : null,
    responseStatus: outcome.status,
    responseBody: outcome.body,
    durationMs: outcome.durationMs,
  };
}

/**
 * The Standard Webhooks headers, and the same values under Svix's names. Several secrets (just after a rotation)
 * give several space-separated signatures; a receiver accepts the delivery when one of them matches.
 */
export function signedHeaders(secrets: readonly string[], messageId: string, body: string): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = secrets.map((secret) => signWebhook(secret, messageId, timestamp, body)).join(" ");
  return {
    "content-type": "application/json",
    "user-agent": "Latchkey-Webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signature,
    "svix-id": messageId,
    "svix-timestamp": String(timestamp),
    "svix-signature": signature,
  };
}

/** One POST: 15 s at most, redirects not followed (a 3xx is a failed attempt), the answer's first 1 KiB kept. */
export function post(url: URL, headers: Record<string, string>, body: string, allowPrivate: boolean, shutdown: AbortSignal): Promise<{ status: number; body: string }> {
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.reject(new Error(`${url.protocol} URLs cannot receive webhooks`));
  if (!allowPrivate) {
    const refused = privateLiteralTarget(url);
    if (refused) return Promise.reject(refused);
  }
  const send = url.protocol === "https:" ? https.request : http.request;
  // A controller of its own, not AbortSignal.any([shutdown, …]): the shutdown signal lives as long as the
  // process, and every signal made to follow it would stay listed on it.
  const controller = new AbortController();
  const stop = () => controller.abort();
  shutdown.addEventListener("abort", stop, { once: true });
  const timer = setTimeout(stop, REQUEST_TIMEOUT_MS);
  const sent = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        signal: controller.signal,
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup as never }),
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          if (text.length < BODY_EXCERPT_CHARS) text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text.slice(0, BODY_EXCERPT_CHARS) }));
        response.on("error", reject);
      },
    );
    request.on("error", (error) => reject(error.name === "AbortError" && !shutdown.aborted ? new Error(`No answer within ${REQUEST_TIMEOUT_MS / 1000} s`) : error));
    request.end(body);
  });
  return sent.finally(() => {
    clearTimeout(timer);
    shutdown.removeEventListener("abort", stop);
  });
}
