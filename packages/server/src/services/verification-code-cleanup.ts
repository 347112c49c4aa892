import { sql } from "kysely";
import type { Logger } from "pino";
import type { Db } from "../db/connect.js";
import { sweepExpiredOAuthRecords } from "./oauth-flow-records.js";
import { sweepStaleThrottles } from "./auth-throttle.js";

/**
 * Deletes spent verification codes (services/verification-codes.ts) and command-line login attempts
 * (services/cli-auth.ts): used or expired ones, once a grace
 * period has passed. The grace keeps a spent code long enough that following an old link still says
 * "expired" or "already used" rather than "not found"; after it, the row is just a hash nobody can use.
 */

/** How long a code is kept after it was used or expired. */
export const CODE_GRACE_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;
/** Rows deleted per statement: short statements keep locks and WAL bursts small on a busy database. */
export const SWEEP_BATCH_SIZE = 1000;
/** How often each server process sweeps. */
export const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

export interface SweepOptions {
  /** The current time; tests pass their own clock. */
  now?: Date;
  graceMs?: number;
  batchSize?: number;
}

/**
 * One sweep: deletes, batch by batch, every code used or expired before `now - grace`. Safe with any
 * number of server processes sweeping at once: each batch locks its rows with SKIP LOCKED, so concurrent
 * sweeps split the work instead of waiting on (or deadlocking with) each other. Returns the rows deleted.
 */
export async function sweepSpentVerificationCodes(db: Db, options: SweepOptions = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - (options.graceMs ?? CODE_GRACE_PERIOD_MS));
  const batchSize = options.batchSize ?? SWEEP_BATCH_SIZE;
  // Command-line login attempts (services/cli-auth.ts) are single-use codes too, spent the same way.
  return (await sweepTable(db, "verification_codes", cutoff, batchSize)) + (await sweepTable(db, "cli_auth_attempts", cutoff, batchSize));
}

async function sweepTable(db: Db, table: "verification_codes" | "cli_auth_attempts", cutoff: Date, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql`
      delete from ${sql.table(table)}
      where id in (
        select id from ${sql.table(table)}
        where expires_at < ${cutoff} or used_at < ${cutoff}
        limit ${batchSize}
        for update skip locked
      )`.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/**
 * Sweeps every `intervalMs` in the background (the timer is unref'd: it never keeps the process alive).
 * `stop()` clears the timer and waits for a sweep in progress, so the database can be closed after it.
 */
export function startVerificationCodeSweeper(db: Db, log: Logger, intervalMs = SWEEP_INTERVAL_MS): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return; // a slow sweep is still going: skip this tick rather than pile up
    running = Promise.all([sweepSpentVerificationCodes(db), sweepExpiredOAuthRecords(db), sweepStaleThrottles(db)])
      .then(([deleted]) => {
        if (deleted > 0) log.info({ deleted }, "deleted spent verification codes");
      })
      .catch((err: unknown) => log.warn({ err }, "verification code sweep failed; will retry at the next interval"))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
