import { HTTPException } from "hono/http-exception";
import { sql } from "kysely";
import type { Db } from "../db/connect.js";

/**
 * Brute-force limits on sign-in (issue 17: 200 wrong passwords on one account in 11 s were all answered).
 *
 * Failures are counted per account (the address as presented, folded to lower case, whether or not an account
 * has it — so the answer is the same for existing and unknown accounts) and per client address, in PostgreSQL so
 * every server process enforces the same counts. Past a threshold each further failure blocks the next attempt
 * for an exponentially growing time, capped: an attacker can slow an account's sign-in to one try a minute, never
 * lock its owner out for good. Failures are forgotten after 15 quiet minutes; a success clears the account's.
 */
interface Rule {
  /** Failures allowed without a wait; the one that reaches it starts the waits. */
  threshold: number;
  /** The wait after the `threshold`th failure, doubling with each further one up to `capSeconds`. */
  baseSeconds: number;
  capSeconds: number;
}

const PER_ACCOUNT: Rule = { threshold: 5, baseSeconds: 1, capSeconds: 60 };
// An address tries many accounts (credential stuffing), and many users share one address behind a NAT.
const PER_CLIENT_ADDRESS: Rule = { threshold: 50, baseSeconds: 1, capSeconds: 300 };
const FORGET_AFTER = "15 minutes";
/** Counters untouched this long are deleted by the sweeper. */
export const THROTTLE_RETENTION = "1 day";

export interface ThrottleSubject {
  /** What is being guessed, e.g. "password": separate counts per kind of secret. */
  scope: string;
  projectId: string;
  /** The account identifier as presented (an email). */
  account?: string;
  /** The client's address (http/client-ip.ts), when known. */
  clientIp?: string;
}

function countersOf(subject: ThrottleSubject): Array<{ key: string; rule: Rule }> {
  const counters: Array<{ key: string; rule: Rule }> = [];
  if (subject.account !== undefined) counters.push({ key: `${subject.scope}:account:${subject.projectId}:${subject.account.toLowerCase()}`, rule: PER_ACCOUNT });
  if (subject.clientIp) counters.push({ key: `${subject.scope}:ip:${subject.projectId}:${subject.clientIp}`, rule: PER_CLIENT_ADDRESS });
  return counters;
}

/** Refuses the attempt with 429 and `Retry-After` while the account or the client address is waiting out a block. */
export async function assertNotThrottled(db: Db, subject: ThrottleSubject): Promise<void> {
  const keys = countersOf(subject).map((c) => c.key);
  if (keys.length === 0) return;
  const blocked = await db
    .selectFrom("auth_throttles")
    .select(sql<number>`ceil(extract(epoch from max(blocked_until) - now()))`.as("seconds"))
    .where("key", "in", keys)
    .where("blocked_until", ">", sql<Date>`now()`)
    .executeTakeFirst();
  const seconds = Number(blocked?.seconds ?? 0);
  if (seconds > 0) throw tooManyAttempts(seconds);
}

/** Counts a failed attempt against the account and the client address, and sets the wait the counts call for. */
export async function recordFailedAttempt(db: Db, subject: ThrottleSubject): Promise<void> {
  for (const { key, rule } of countersOf(subject)) {
    const failures = sql<number>`case when auth_throttles.last_failure_at < now() - ${FORGET_AFTER}::interval then 1 else auth_throttles.failures + 1 end`;
    await sql`
      insert into auth_throttles (key, failures, last_failure_at, blocked_until)
      values (${key}, 1, now(), now() + ${waitFor(sql`1`, rule)})
      on conflict (key) do update set
        failures = ${failures},
        last_failure_at = now(),
        blocked_until = now() + ${waitFor(failures, rule)}`.execute(db);
  }
}

/** A successful sign-in clears its account's count (not the client address's: one success must not hide stuffing). */
export async function clearAccountFailures(db: Db, subject: ThrottleSubject): Promise<void> {
  const [account] = countersOf({ ...subject, clientIp: undefined });
  if (account) await db.deleteFrom("auth_throttles").where("key", "=", account.key).execute();
}

/** Deletes counters nobody has failed on for a day (run by the sweeper). */
export async function sweepStaleThrottles(db: Db): Promise<number> {
  const result = await sql`delete from auth_throttles where last_failure_at < now() - ${THROTTLE_RETENTION}::interval`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

function waitFor(failures: ReturnType<typeof sql<number>>, rule: Rule) {
  return sql`(case when ${failures} >= ${rule.threshold}
    then least(${rule.capSeconds}, ${rule.baseSeconds} * power(2, ${failures} - ${rule.threshold})) * interval '1 second'
    else interval '0' end)`;
}

function tooManyAttempts(seconds: number): HTTPException {
  // The protocol has no known error for this (as for the mail send limit): a plain 429 a client can retry after.
  const message = `Too many failed attempts. Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  return new HTTPException(429, {
    message,
    res: new Response(message, { status: 429, headers: { "content-type": "text/plain; charset=utf-8", "retry-after": String(seconds) } }),
  });
}
