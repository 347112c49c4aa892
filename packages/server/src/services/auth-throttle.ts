import { HTTPException } from "hono/http-exception";
import { sql } from "kysely";
import type { Db } from "../db/connect.js";

/**
 * Brute-force limits (issue 17: 200 wrong passwords on one account in 11 s were all answered).
 *
 * Attempts are counted per kind of attempt (below), per account where the kind has one, and per client
 * address, in PostgreSQL so every server process enforces the same counts. Past a threshold each further
 * counted attempt blocks the next one for an exponentially growing time, capped: an attacker can slow an
 * account's sign-in to one try a minute, never lock its owner out for good. Counts are forgotten after 15
 * quiet minutes; a success clears the account's.
 *
 * Every kind has counters of its own, so that guessing one secret never slows another way in (a mistyped
 * one-time code does not delay the same person's password sign-in) and each limit can fit its secret.
 */
interface Rule {
  /** Attempts allowed without a wait; the one that reaches it starts the waits. */
  threshold: number;
  /** The wait after the `threshold`th attempt, doubling with each further one up to `capSeconds`. */
  baseSeconds: number;
  capSeconds: number;
}

/** What is being guessed (or, for `mail_send`, spent). */
export type AttemptKind =
  /** Wrong passwords, per address as presented (known or not) and per client address. */
  | "password"
  /** Wrong one-time / magic-link codes. Each code also dies after its own 20 wrong guesses (verification-codes.ts). */
  | "otp_code"
  /** Wrong TOTP codes, per user: a new attempt code per password sign-in must not reset the count. */
  | "mfa_code"
  /** Failed passkey sign-ins. */
  | "passkey"
  /** Unknown CLI polling codes and login codes. */
  | "cli_code"
  /** Wrong secret server or super secret admin keys (the publishable key is no secret). */
  | "api_key"
  /** Mails sent by "maybe sent" and verification routes; every send counts, not only failures. */
  | "mail_send";

const PER_ACCOUNT: Rule = { threshold: 5, baseSeconds: 1, capSeconds: 60 };
// Each attempt code already dies after 5 wrong TOTP codes; the person who mistyped that often gets a fresh one
// at once, and only a second dead attempt code in a row starts the waits (then 60 s caps a million codes to years).
const TOTP_PER_USER: Rule = { threshold: 10, baseSeconds: 1, capSeconds: 60 };
// An address tries many accounts (credential stuffing), and many users share one address behind a NAT.
const PER_CLIENT_ADDRESS: Rule = { threshold: 50, baseSeconds: 1, capSeconds: 300 };
// Mail bombing through our sender: each address alone is limited to 5 sends per 10 minutes per purpose
// (verification-codes.ts); this limits how many addresses one client can make us write to.
const SENDS_PER_CLIENT_ADDRESS: Rule = { threshold: 30, baseSeconds: 1, capSeconds: 300 };

const LIMITS: Record<AttemptKind, { account?: Rule; clientIp: Rule }> = {
  password: { account: PER_ACCOUNT, clientIp: PER_CLIENT_ADDRESS },
  otp_code: { clientIp: PER_CLIENT_ADDRESS },
  mfa_code: { account: TOTP_PER_USER, clientIp: PER_CLIENT_ADDRESS },
  passkey: { clientIp: PER_CLIENT_ADDRESS },
  cli_code: { clientIp: PER_CLIENT_ADDRESS },
  api_key: { clientIp: PER_CLIENT_ADDRESS },
  mail_send: { clientIp: SENDS_PER_CLIENT_ADDRESS },
};

const FORGET_AFTER = "15 minutes";
/** Counters untouched this long are deleted by the sweeper. */
export const THROTTLE_RETENTION = "1 day";

export interface ThrottleSubject {
  kind: AttemptKind;
  projectId: string;
  /** The account as presented (an email, or a user id); counted only for kinds with a per-account rule. */
  account?: string;
  /** The client's address (http/client-ip.ts `attemptIp`), when known and worth counting. */
  clientIp?: string;
}

function countersOf(subject: ThrottleSubject): Array<{ key: string; rule: Rule }> {
  const limits = LIMITS[subject.kind];
  const counters: Array<{ key: string; rule: Rule }> = [];
  if (limits.account && subject.account !== undefined) {
    counters.push({ key: `${subject.kind}:account:${subject.projectId}:${subject.account.toLowerCase()}`, rule: limits.account });
  }
  if (subject.clientIp) counters.push({ key: `${subject.kind}:ip:${subject.projectId}:${subject.clientIp}`, rule: limits.clientIp });
  return counters;
}

/** Where a subject stands: how long it still has to wait, and whether its account has failures on record. */
export interface ThrottleState {
  /** 0 when neither the account nor the client address is blocked. */
  seconds: number;
  /** Whether a success has anything to clear (most sign-ins have not: they skip the write). */
  accountHasFailures: boolean;
}

/** One read of the subject's counters. */
export async function throttleState(db: Db, subject: ThrottleSubject): Promise<ThrottleState> {
  const counters = countersOf(subject);
  if (counters.length === 0) return { seconds: 0, accountHasFailures: false };
  const rows = await db
    .selectFrom("auth_throttles")
    .select(["key", sql<number>`greatest(0, ceil(extract(epoch from blocked_until - now())))`.as("seconds")])
    .where("key", "in", counters.map((c) => c.key))
    .execute();
  const [accountKey] = countersOf({ ...subject, clientIp: undefined }).map((c) => c.key);
  return {
    seconds: Math.max(0, ...rows.map((row) => Number(row.seconds))),
    accountHasFailures: accountKey !== undefined && rows.some((row) => row.key === accountKey),
  };
}

/** How many seconds the account or the client address still has to wait; 0 when neither is blocked. */
export async function secondsBlocked(db: Db, subject: ThrottleSubject): Promise<number> {
  return (await throttleState(db, subject)).seconds;
}

/**
 * Refuses the attempt with 429 and `Retry-After` while the account or the client address is waiting out a
 * block; otherwise where the subject stands (for `clearAccountFailures`).
 */
export async function assertNotThrottled(db: Db, subject: ThrottleSubject): Promise<ThrottleState> {
  const state = await throttleState(db, subject);
  if (state.seconds > 0) throw tooManyAttempts(state.seconds, subject.kind === "mail_send" ? "Too many emails requested" : undefined);
  return state;
}

/** Counts a failed attempt against the account and the client address, and sets the wait the counts call for. */
export async function recordFailedAttempt(db: Db, subject: ThrottleSubject): Promise<void> {
  const failures = sql<number>`case when auth_throttles.last_failure_at < now() - ${FORGET_AFTER}::interval then 1 else auth_throttles.failures + 1 end`;
  await Promise.all(
    countersOf(subject).map(
      ({ key, rule }) => sql`
        insert into auth_throttles (key, failures, last_failure_at, blocked_until)
        values (${key}, 1, now(), ${blockedUntil(sql`1`, rule)})
        on conflict (key) do update set
          failures = ${failures},
          last_failure_at = now(),
          blocked_until = ${blockedUntil(failures, rule)}`.execute(db),
    ),
  );
}

/**
 * A success clears its account's count (not the client address's: one success must not hide stuffing). With
 * the state its check read, nothing is written when the account had no failures.
 */
export async function clearAccountFailures(db: Db, subject: ThrottleSubject, state?: ThrottleState): Promise<void> {
  if (state && !state.accountHasFailures) return;
  const [account] = countersOf({ ...subject, clientIp: undefined });
  if (account) await db.deleteFrom("auth_throttles").where("key", "=", account.key).execute();
}

/**
 * Runs one attempt under the limits: refused while blocked, counted when it fails in a way `isFailure`
 * names (a wrong code — not, say, MFA being required after a right one), the account's count cleared when
 * it succeeds.
 */
export async function throttledAttempt<T>(db: Db, subject: ThrottleSubject, attempt: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
  const state = await assertNotThrottled(db, subject);
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (isFailure(error)) await recordFailedAttempt(db, subject);
    throw error;
  }
  await clearAccountFailures(db, subject, state);
  return result;
}

/**
 * For attempts that cost whatever their outcome (a mail send): refused while blocked, otherwise counted
 * before it runs. Called before anything depends on whether the address has an account, so the answer is the
 * same for existing and unknown addresses.
 */
export async function admitCountedAttempt(db: Db, subject: ThrottleSubject): Promise<void> {
  await assertNotThrottled(db, subject);
  await recordFailedAttempt(db, subject);
}

/** Deletes counters nobody has failed on for a day (run by the sweeper). */
export async function sweepStaleThrottles(db: Db): Promise<number> {
  const result = await sql`delete from auth_throttles where last_failure_at < now() - ${THROTTLE_RETENTION}::interval`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The end of the wait the failures call for. Below the threshold it is the distant past, not `now()`: a
 * concurrent check whose statement began a few microseconds earlier would see a `now()` in its future and
 * round it up to a one-second block.
 */
function blockedUntil(failures: ReturnType<typeof sql<number>>, rule: Rule) {
  return sql`(case when ${failures} >= ${rule.threshold}
    then now() + least(${rule.capSeconds}, ${rule.baseSeconds} * power(2, ${failures} - ${rule.threshold})) * interval '1 second'
    else 'epoch'::timestamptz end)`;
}

/** The 429 every limit answers with. */
export function tooManyAttempts(seconds: number, what = "Too many failed attempts"): HTTPException {
  // The protocol has no known error for this (as for the mail send limit): a plain 429 a client can retry after.
  const message = `${what}. Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  return new HTTPException(429, {
    message,
    res: new Response(message, { status: 429, headers: { "content-type": "text/plain; charset=utf-8", "retry-after": String(seconds) } }),
  });
}
