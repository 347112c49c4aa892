import { HTTPException } from "hono/http-exception";
import { sql, type RawBuilder, type SelectQueryBuilder } from "kysely";
import type { Db } from "../db/connect.js";
import { preparedStatement } from "../db/prepared-statements.js";
import { CompiledOnce } from "../db/compiled-once.js";
import type { Database } from "../db/schema.js";

/**
 * Brute-force limits (issue 17: 200 wrong passwords on one account in 11 s were all answered).
 *
 * Attempts are counted per kind of attempt (below), per account where the kind has one, and per client
 * address, in PostgreSQL so every server process enforces the same counts. Past a threshold each further
 * counted attempt blocks the next one for an exponentially growing time, capped: an attacker can slow an
 * account's sign-in to one try a minute, never lock its owner out for good. Counts are forgotten after 15
 * quiet minutes; a success clears the account's.
 *
 * Counting is exact under bursts (issue 30: 16 parallel wrong passwords on two processes were all checked). An
 * attempt whose outcome takes a while (a password hash) first takes a slot in the statement that checks the
 * limit (`admitAttempt`), and settles it when its outcome is known; one whose outcome is known at once (a wrong
 * key, a mail send) is counted in the statement that checks (`countUnlessBlocked`). Either is one step under the
 * counter row's lock. The table is unlogged (migration 0036): every sign-in writes it, and the counters need not
 * survive a database crash.
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
  | "mail_send"
  /** Wrong bearer tokens for `/metrics` (LATCHKEY_METRICS_TOKEN), under the project id "-". */
  | "metrics_token";

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
  metrics_token: { clientIp: PER_CLIENT_ADDRESS },
};

const FORGET_AFTER = "15 minutes";
/** Counters untouched this long are deleted by the sweeper. */
export const THROTTLE_RETENTION = "1 day";
/**
 * How long an admitted attempt holds its slot at most: one whose process died before settling it stops counting
 * then. Far longer than any attempt takes (a password hash, a code lookup).
 */
const SLOT_LEASE = "30 seconds";
/** How long an attempt waits for slots that attempts in flight hold before it is refused (a second's 429). */
const SLOT_WAIT_MS = 2_000;

export interface ThrottleSubject {
  kind: AttemptKind;
  projectId: string;
  /** The account as presented (an email, or a user id); counted only for kinds with a per-account rule. */
  account?: string;
  /**
   * A browser that has signed in to the account before (crypto/device-tokens.ts): its attempts are counted per
   * device instead of against the account, so an attacker's failures never lock it out (OWASP's device cookies).
   */
  device?: string;
  /** The client's address (http/client-ip.ts `attemptIp`), when known and worth counting. */
  clientIp?: string;
}

interface Counter {
  key: string;
  rule: Rule;
}

function countersOf(subject: ThrottleSubject): Counter[] {
  const limits = LIMITS[subject.kind];
  const counters: Counter[] = [];
  if (limits.account && subject.account !== undefined) {
    const account = `${subject.projectId}:${subject.account.toLowerCase()}`;
    const key = subject.device ? `${subject.kind}:device:${account}:${subject.device}` : `${subject.kind}:account:${account}`;
    counters.push({ key, rule: limits.account });
  }
  if (subject.clientIp) counters.push({ key: `${subject.kind}:ip:${subject.projectId}:${subject.clientIp}`, rule: limits.clientIp });
  return counters;
}

/**
 * An attempt admitted under the limits, holding a slot on each of its counters until it is settled (exactly once):
 * a counter lets `threshold` minus its failures attempts run at once (one past the threshold), so parallel attempts
 * on any number of server processes never check more secrets than the same attempts made one after another.
 */
export interface Admission {
  /** A wrong guess: counted, and the wait the count calls for set. */
  failed(): Promise<void>;
  /** A success: the account's (or the device's) count cleared. Not the client address's: one success must not hide stuffing. */
  succeeded(): Promise<void>;
  /** Neither (an error that is no guess, say MFA being required after a right code): nothing counted. */
  released(): Promise<void>;
  /**
   * A success settled inside the caller's own statement, saving it a round trip: `run` gets the success's SQL (undefined
   * when there is nothing to settle), runs it as a CTE of one of its statements and calls its `ran()` once that
   * statement has run. Should `run` fail before, the success is settled alone before the error is passed on.
   */
  succeededWithin<T>(run: (settle: SettleWithin | undefined) => Promise<T>): Promise<T>;
}

/** The statement that settles an admission, for a caller to run inside its own (`Admission.succeededWithin`). */
export interface SettleWithin {
  /**
   * An `update` of the counters in parentheses, to be run as a CTE: `settleStatement(shape, i => values[i])`, built
   * once per shape by a statement compiled once (db/compiled-once.ts), which fills in the values at each run.
   */
  shape: string;
  values: readonly unknown[];
  /** To be called once the statement holding it has run. */
  ran(): void;
}

/** The statement of a `SettleWithin` of `shape`, its values taken from `value` (stand-ins, when compiled once). */
export function settleStatement(shape: string, value: (i: number) => unknown): RawBuilder<unknown> {
  const keys = Array.from({ length: Number(shape) }, (_, i) => value(i + 1) as string);
  return releaseSlotsStatement(keys, value(0) as string | null, "cte");
}

/**
 * Takes a slot on each of the subject's counters, or refuses the attempt with 429 and `Retry-After` while a counter
 * is blocked. While the slots are taken by attempts in flight it waits for them to settle (a password hash, a few
 * dozen milliseconds) and asks again, for as long as its counters stay below their thresholds: successes free the
 * slots, failures that reach a threshold refuse it. So parallel right passwords all sign in, and parallel wrong ones
 * are answered as one after another would be; past a threshold only an attempt on its first try gets the one slot
 * between blocks, so a waiting burst never spills into the next.
 */
export async function admitAttempt(db: Db, subject: ThrottleSubject): Promise<Admission> {
  return (await admit(db, subject)).admission;
}

/**
 * `admitAttempt` with a read of at most one row (`read`, a select that ends in `limit 1`) done in the statement that
 * first tries for the slots: an attempt that must look something up before its outcome is known (the account of a
 * password sign-in) pays one round trip for both. `row` is the read's row, undefined when it found none.
 */
export async function admitAttemptReading<Row extends { id: unknown }>(db: Db, subject: ThrottleSubject, read: OneRowRead<Row>): Promise<{ admission: Admission; row: Row | undefined }> {
  return admit(db, subject, read);
}

/**
 * A select of at most one row, with an `id` that is never null, as a statement compiled once takes it
 * (db/compiled-once.ts): `build` makes it from `values` (or their stand-ins); `shape` names what else its text
 * depends on.
 */
export interface OneRowRead<Row> {
  shape: string;
  values: Record<string, unknown>;
  build(values: Record<string, unknown>): SelectQueryBuilder<Database, keyof Database, Row>;
}

/** The first try for the slots with a read beside it, compiled once per shape (admit). */
const takeSlotsReading = new CompiledOnce<Record<string, unknown>, { admission_taken: number; admission_slots: string[] | null }>();

async function admit<Row extends { id: unknown }>(db: Db, subject: ThrottleSubject, read?: OneRowRead<Row>): Promise<{ admission: Admission; row: Row | undefined }> {
  const counters = countersOf(subject);
  if (counters.length === 0) {
    const row = read ? await read.build(read.values).executeTakeFirst() : undefined;
    return { admission: { failed: nothing, succeeded: nothing, released: nothing, succeededWithin: (run) => run(undefined) }, row };
  }
  let row: Row | undefined;
  const firstTry = async () => {
    if (!read) return takeSlots(db, counters, false);
    // The read runs on the statement's snapshot, beside the slots' insert (a data-modifying CTE); the aggregate
    // gives one row whether or not it finds one. The keys taken come back only when some were not (the usual case
    // needs no array to parse).
    // Its text depends on which counters apply (their rules' thresholds are in it) and on the read's own shape.
    const shape = `${subject.kind} ${counters.map((c) => (c.rule === LIMITS[subject.kind].account ? "account" : "ip")).join(",")} ${read.shape}`;
    const values: Record<string, unknown> = { ...read.values };
    counters.forEach((c, i) => (values[`counter${i}`] = c.key));
    const build = (slots: Record<string, unknown>) =>
      db
        .with("taken", (() => takeSlotsStatement(counters.map((c, i) => ({ ...c, key: slots[`counter${i}`] as string })), false, "cte")) as never)
        .selectFrom(
          sql<{
            admission_taken: number;
            admission_slots: string[] | null;
          }>`(select count(*)::int as admission_taken, case when count(*) < ${sql.lit(counters.length)} then array_agg(key) end as admission_slots from taken)`.as("slots"),
        )
        .leftJoinLateral(read.build(slots).as("r"), (join) => join.onTrue())
        .selectAll("r")
        .select(["slots.admission_taken", "slots.admission_slots"])
        .modifyEnd(preparedStatement);
    const result = (await takeSlotsReading.run(db, shape, values, build)).rows[0] as Row & { admission_taken: number; admission_slots: string[] | null };
    const { admission_taken, admission_slots, ...columns } = result;
    if (columns.id !== null) row = columns as unknown as Row;
    return admission_taken === counters.length || settleTaken(db, counters, admission_slots ?? []);
  };
  const deadline = Date.now() + SLOT_WAIT_MS;
  for (let pause = 10, retry = false; !(await (retry ? takeSlots(db, counters, retry) : firstTry())); pause = Math.min(2 * pause, 200), retry = true) {
    const { seconds, pastThreshold } = await counterState(db, counters);
    if (seconds > 0 || pastThreshold) throw tooManyAttempts(Math.max(1, seconds));
    // Slots held longer than this belong to attempts that are stuck or whose process died (their lease runs out).
    if (Date.now() + pause > deadline) throw tooManyAttempts(1);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  const keys = counters.map((c) => c.key);
  const [own] = countersOf({ ...subject, clientIp: undefined });
  let settled = false;
  const once = (settle: () => Promise<unknown>) => async () => {
    if (settled) return;
    settled = true;
    await settle();
  };
  const succeeded = once(() => releaseSlots(db, keys, own?.key));
  const admission: Admission = {
    failed: once(() => Promise.all(counters.map((c) => countFailure(db, c, 1)))),
    succeeded,
    released: once(() => releaseSlots(db, keys)),
    async succeededWithin(run) {
      if (settled) return run(undefined);
      settled = true;
      let ran = false;
      try {
        return await run({ shape: String(keys.length), values: [own?.key ?? null, ...keys], ran: () => void (ran = true) });
      } catch (error) {
        if (!ran) {
          settled = false;
          await succeeded();
        }
        throw error;
      }
    },
  };
  return { admission, row };
}

/**
 * Takes a slot on every counter in one statement, or none: the check and the slot are one step under the counter
 * row's lock, so two attempts never both take the last slot, whichever processes run them.
 */
async function takeSlots(db: Db, counters: Counter[], retry: boolean): Promise<boolean> {
  const taken = await takeSlotsStatement(counters, retry).execute(db);
  return settleTaken(
    db,
    counters,
    taken.rows.map((row) => row.key),
  );
}

/** The insert that takes the slots, alone or (`cte`) in parentheses, as the body of a CTE (which the table name must start). */
function takeSlotsStatement(counters: Counter[], retry: boolean, as: "statement" | "cte" = "statement") {
  const rest = sql`(key, failures, last_failure_at, blocked_until, in_flight, in_flight_since)
    select s.key, 0, 'epoch', 'epoch', 1, now() from ${subjectValues(counters)} where not ${anyRefusing(counters, retry)}
    on conflict (key) do update set in_flight = ${inFlight(sql`t`)} + 1, in_flight_since = now()
    where not ${refuses(sql`t`, perKey(counters, (c) => sql`${c.rule.threshold}::int`), retry)}
    returning t.key`;
  return as === "cte" ? sql<{ key: string }>`(insert into auth_throttles as t ${rest})` : sql<{ key: string }>`insert into auth_throttles as t ${rest}`;
}

/** Whether every counter gave a slot; if only some did, theirs are given back. */
async function settleTaken(db: Db, counters: Counter[], keys: string[]): Promise<boolean> {
  if (keys.length === counters.length) return true;
  // Another attempt took the last slot or set a block between this statement's snapshot and its row lock.
  if (keys.length > 0) await releaseSlots(db, keys);
  return false;
}

/**
 * Runs one attempt under the limits: refused while blocked, counted when it fails in a way `isFailure`
 * names (a wrong code — not, say, MFA being required after a right one), the account's count cleared when
 * it succeeds.
 */
export async function throttledAttempt<T>(db: Db, subject: ThrottleSubject, attempt: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
  const admission = await admitAttempt(db, subject);
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    await (isFailure(error) ? admission.failed() : admission.released());
    throw error;
  }
  await admission.succeeded();
  return result;
}

/**
 * Counts an attempt whose outcome is known before it is answered (a wrong secret key, a mail send, which costs
 * whatever its outcome) unless a counter is blocked: one step under the counter row's lock, so parallel attempts past
 * the threshold are refused on every process. The seconds to wait when refused (nothing counted then), else 0.
 */
export async function countUnlessBlocked(db: Db, subject: ThrottleSubject): Promise<number> {
  const counters = countersOf(subject);
  if (counters.length === 0) return 0;
  const failures = failuresAfterOneMore(sql`t`);
  const counted = await sql<{ key: string }>`
    insert into auth_throttles as t (key, failures, last_failure_at, blocked_until)
    select s.key, 1, now(), ${perKey(counters, (c) => blockedUntil(sql`1`, c.rule), sql`s.key`)} from ${subjectValues(counters)} where not ${anyRefusing(counters)}
    on conflict (key) do update set failures = ${failures}, last_failure_at = now(), blocked_until = ${perKey(counters, (c) => blockedUntil(failures, c.rule))}
    where not ${refuses(sql`t`, perKey(counters, (c) => sql`${c.rule.threshold}::int`))}
    returning t.key`.execute(db);
  // A counter that refused while another counted leaves that one a count too high: erring towards refusing.
  return counted.rows.length < counters.length ? Math.max(1, (await counterState(db, counters)).seconds) : 0;
}

/**
 * For attempts that cost whatever their outcome (a mail send): refused while blocked, otherwise counted
 * before it runs. Called before anything depends on whether the address has an account, so the answer is the
 * same for existing and unknown addresses.
 */
export async function admitCountedAttempt(db: Db, subject: ThrottleSubject): Promise<void> {
  const seconds = await countUnlessBlocked(db, subject);
  if (seconds > 0) throw tooManyAttempts(seconds, subject.kind === "mail_send" ? "Too many emails requested" : undefined);
}

/**
 * How many seconds the account or the client address still has to wait; 0 when neither is blocked. A read of one
 * snapshot: enough for an attempt that is never counted (a right secret key), which it places before any attempt the
 * snapshot does not see.
 */
export async function secondsBlocked(db: Db, subject: ThrottleSubject): Promise<number> {
  return (await counterState(db, countersOf(subject))).seconds;
}

/** Counts a failed attempt against the account and the client address, and sets the wait the counts call for. */
export async function recordFailedAttempt(db: Db, subject: ThrottleSubject): Promise<void> {
  await Promise.all(countersOf(subject).map((counter) => countFailure(db, counter, 0)));
}

/** Deletes counters nobody has failed on for a day, and those that hold nothing (run by the sweeper). */
export async function sweepStaleThrottles(db: Db): Promise<number> {
  const result = await sql`
    delete from auth_throttles
    where in_flight_since < now() - ${SLOT_LEASE}::interval
      and (last_failure_at < now() - ${THROTTLE_RETENTION}::interval or (failures = 0 and blocked_until <= now()))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** One more failure on a counter, giving back `release` slots (1 when an admitted attempt failed). */
function countFailure(db: Db, { key, rule }: Counter, release: 0 | 1) {
  const failures = failuresAfterOneMore(sql`auth_throttles`);
  return sql`
    insert into auth_throttles (key, failures, last_failure_at, blocked_until)
    values (${key}, 1, now(), ${blockedUntil(sql`1`, rule)})
    on conflict (key) do update set
      failures = ${failures},
      last_failure_at = now(),
      blocked_until = ${blockedUntil(failures, rule)},
      in_flight = greatest(0, auth_throttles.in_flight - ${release})`.execute(db);
}

/** Gives back the slots of an attempt; `clear` names the counter whose failures a success wipes. */
async function releaseSlots(db: Db, keys: string[], clear?: string): Promise<void> {
  await releaseSlotsStatement(keys, clear).execute(db);
}

/** The update that gives the slots back, alone or (`cte`) in parentheses, as the body of a CTE. */
function releaseSlotsStatement(keys: string[], clear?: string | null, as: "statement" | "cte" = "statement") {
  const rest = sql`set
      in_flight = greatest(0, in_flight - 1),
      failures = case when key = ${clear ?? null} then 0 else failures end,
      blocked_until = case when key = ${clear ?? null} then 'epoch'::timestamptz else blocked_until end
    where key in (${sql.join(keys)})`;
  return as === "cte" ? sql`(update auth_throttles ${rest})` : sql`update auth_throttles ${rest}`;
}

/**
 * Where the counters stand: the longest block, in whole seconds (0 when none is blocked), and whether any has reached
 * its threshold.
 */
async function counterState(db: Db, counters: Counter[]): Promise<{ seconds: number; pastThreshold: boolean }> {
  if (counters.length === 0) return { seconds: 0, pastThreshold: false };
  const row = await sql<{ seconds: number | null; past: boolean | null }>`
    select
      (max(ceil(extract(epoch from t.blocked_until - now()))) filter (where t.blocked_until > now()))::int as seconds,
      bool_or(${failuresHeld(sql`t`)} >= s.threshold) as past
    from auth_throttles t join ${subjectValues(counters)} on t.key = s.key`.execute(db);
  return { seconds: Math.max(0, Number(row.rows[0]?.seconds ?? 0)), pastThreshold: row.rows[0]?.past === true };
}

const nothing = async () => {};

type Fragment = RawBuilder<unknown>;

/** The counters as a table `alias (key, threshold)`. */
function subjectValues(counters: Counter[], alias = "s") {
  const rows = sql.join(counters.map((c) => sql`(${c.key}::text, ${c.rule.threshold}::int)`));
  return sql`(values ${rows}) as ${sql.raw(alias)} (key, threshold)`;
}

/** Whether any of the counters refuses, as this statement's snapshot has them (the row lock decides for each). */
function anyRefusing(counters: Counter[], retry = false) {
  return sql`exists (select 1 from auth_throttles r join ${subjectValues(counters, "v")} on r.key = v.key where ${refuses(sql`r`, sql`v.threshold`, retry)})`;
}

/** A value per counter, chosen by the row's key (`t.key` by default). */
function perKey(counters: Counter[], value: (counter: Counter) => Fragment, key: Fragment = sql`t.key`) {
  return sql`(case ${key} ${sql.join(counters.map((c) => sql`when ${c.key} then ${value(c)}`), sql` `)} end)`;
}

/** The failures a counter holds, forgotten after a quiet while. */
function failuresHeld(row: Fragment) {
  return sql`(case when ${row}.last_failure_at < now() - ${FORGET_AFTER}::interval then 0 else ${row}.failures end)`;
}

function failuresAfterOneMore(row: Fragment) {
  return sql`(${failuresHeld(row)} + 1)`;
}

/** The slots a counter has taken, within their lease. */
function inFlight(row: Fragment) {
  return sql`(case when ${row}.in_flight_since < now() - ${SLOT_LEASE}::interval then 0 else ${row}.in_flight end)`;
}

/**
 * Whether a counter refuses the next attempt: while it is blocked, and while attempts in flight take every slot its
 * failures leave (the threshold minus the failures; one once they reach it, between blocks). An attempt that has
 * waited for a slot (`retry`) gets none once the failures reach the threshold.
 */
function refuses(row: Fragment, threshold: Fragment, retry = false) {
  const waitedPastThreshold = retry ? sql` or ${failuresHeld(row)} >= ${threshold}` : sql``;
  return sql`(${row}.blocked_until > now() or ${inFlight(row)} >= greatest(1, ${threshold} - ${failuresHeld(row)})${waitedPastThreshold})`;
}

/**
 * The end of the wait the failures call for. Below the threshold it is the distant past, not `now()`: a
 * concurrent check whose statement began a few microseconds earlier would see a `now()` in its future and
 * round it up to a one-second block.
 */
function blockedUntil(failures: Fragment, rule: Rule) {
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
