import { sql } from "kysely";
import type { Logger } from "pino";
import { deriveSigningKey, newKeySeed, unwrapSeed, wrapSeed, type SigningKey, type SigningKeyRing } from "../crypto/signing-keys.js";
import type { ChangeFeed } from "../db/change-feed.js";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";

/**
 * Access-token signing keys and their rotation (migrations/0015_signing_keys_and_activity.sql).
 *
 * Where keys live: in PostgreSQL, so every server process signs with the same key and verifies every other
 * process's tokens. A *generation* is a random 32-byte seed; each audience (a project, its anonymous users)
 * derives its own ES256 key pair from it (crypto/signing-keys.ts). Seeds are stored encrypted with a key
 * derived from LATCHKEY_SERVER_SECRET: a copy of the database alone cannot sign tokens.
 *
 * Life of a generation: *next* → *current* → *retired* → deleted.
 * - The JWKS publishes, per audience, the current key (signs new tokens) and the next one (signs nothing yet).
 * - Rotation, in one transaction under an advisory lock (so concurrent processes rotate once): the current
 *   generation retires, the next becomes current, and a fresh next is made. Verifiers cache the JWKS for an
 *   hour; the next key has been in it since the previous rotation, so every cached copy already holds the key
 *   that signs after the rotation. Rotation happens on its own every LATCHKEY_SIGNING_KEY_ROTATION_DAYS
 *   (checked whenever a process reloads its keys), or at once with `npm run rotate-signing-keys`.
 * - Retired generations no longer sign and leave the JWKS, but this server still verifies tokens they signed:
 *   they are kept RETIRED_KEEP_MS (longer than the longest access-token lifetime, 24 h) and then deleted.
 *   (A third party verifying with a JWKS fetched after the rotation no longer finds the old key; such a token
 *   has at most its lifetime left, and clients refresh it.)
 * - Every process keeps the generations in memory and reloads them when the database announces a change
 *   (the change feed, migration 0008), or after RELOAD_AFTER_MS at most, or when a token names a key it does
 *   not know. A process that has not yet heard of a rotation signs with the retired key for a moment, which
 *   every process still verifies, and verifies tokens of the new current key, which it holds as "next".
 *
 * The server secret and LATCHKEY_PREVIOUS_SERVER_SECRETS: changing the server secret changes no signing key.
 * A process decrypts each seed with whichever of its secrets encrypted it (a fingerprint is stored beside it)
 * and re-encrypts seeds found under a previous secret with the current one. Tokens and JWKS are unaffected.
 * During a rolling change, processes that know only the old secret keep the keys they have loaded; a process
 * that can decrypt no current key refuses to start, naming the variable to set.
 */

/** Longer than any access token lives (LATCHKEY_ACCESS_TOKEN_LIFETIME_SECONDS is at most a day). */
const RETIRED_KEEP_MS = 25 * 3_600_000;
const RELOAD_AFTER_MS = 60_000;
/** An unknown kid reloads the keys at most this often, so made-up tokens cannot flood the database. */
const UNKNOWN_KID_RELOAD_INTERVAL_MS = 5_000;
// Any fixed number shared by every Latchkey process: the lock that makes concurrent rotations happen once.
const ROTATION_LOCK_KEY = 7_245_310_117;

interface Generation {
  id: string;
  seed: Uint8Array;
  activatedAt: Date | null;
  retiredAt: Date | null;
}

interface Loaded {
  current: Generation;
  next: Generation;
  /** Every generation this process can use, retired ones included. */
  all: Generation[];
  at: number;
}

export class SigningKeysUnavailable extends Error {}

/** Loads (and, on a new database, creates) the generations; throws SigningKeysUnavailable when none can be read. */
export async function openSigningKeyRing(db: Db, env: Env, log: Logger, feed?: ChangeFeed): Promise<DatabaseKeyRing> {
  const ring = new DatabaseKeyRing(db, env, log);
  feed?.subscribe((event) => {
    if (event.type === "reset" || event.kind === "signing-keys") ring.markStale();
  });
  await ring.reload();
  return ring;
}

export class DatabaseKeyRing implements SigningKeyRing {
  epoch = 0;
  private loaded: Loaded | undefined;
  private loading: Promise<Loaded> | undefined;
  private stale = false;
  private lastUnknownKidReload = 0;

  constructor(
    private readonly db: Db,
    private readonly env: Env,
    private readonly log: Logger,
  ) {}

  /** The database announced a change: read again now, so removed keys stop verifying without waiting for a signature. */
  markStale(): void {
    this.stale = true;
    this.reload().catch((error: unknown) => this.log.warn({ err: error }, "signing keys could not be reloaded"));
  }

  async signingKey(audience: string): Promise<SigningKey> {
    return deriveSigningKey((await this.keys({ waitForReload: false })).current.seed, audience);
  }

  async publishedKeys(audience: string): Promise<SigningKey[]> {
    const { current, next } = await this.keys({ waitForReload: true });
    return [deriveSigningKey(current.seed, audience), deriveSigningKey(next.seed, audience)];
  }

  async verificationKey(audience: string, kid: string): Promise<SigningKey | undefined> {
    const find = (loaded: Loaded) => loaded.all.map((g) => deriveSigningKey(g.seed, audience)).find((key) => key.kid === kid);
    const found = find(await this.keys({ waitForReload: true }));
    if (found || Date.now() - this.lastUnknownKidReload < UNKNOWN_KID_RELOAD_INTERVAL_MS) return found;
    // Perhaps another process rotated and this one has not heard yet.
    this.lastUnknownKidReload = Date.now();
    return find(await this.reload());
  }

  /**
   * The generations, read again first when they may be out of date. Signing does not wait for that read when
   * keys are held: tokens are signed inside transactions (a sign-in that creates its user), and with embedded
   * PGlite's one connection a read from outside the transaction would wait for it forever. The held keys sign
   * meanwhile, which is safe (see "A process that has not yet heard of a rotation" above).
   */
  private async keys(options: { waitForReload: boolean }): Promise<Loaded> {
    const loaded = this.loaded;
    if (loaded && !this.stale && Date.now() - loaded.at < RELOAD_AFTER_MS) return loaded;
    if (loaded && !options.waitForReload) {
      this.reload().catch((error: unknown) => this.log.warn({ err: error }, "signing keys could not be reloaded"));
      return loaded;
    }
    try {
      return await this.reload();
    } catch (error) {
      // Keys already held keep working while the database cannot give newer ones.
      if (loaded && error instanceof SigningKeysUnavailable) {
        this.log.error({ err: error }, "signing keys could not be reloaded; keeping the ones loaded");
        return loaded;
      }
      throw error;
    }
  }

  /** Reads the generations again (one read at a time per process), rotating first when a rotation is due. */
  reload(): Promise<Loaded> {
    this.loading ??= (async () => {
      try {
        this.stale = false;
        await ensureGenerations(this.db, this.env);
        const loaded = await this.read();
        this.loaded = loaded;
        return loaded;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  private async read(): Promise<Loaded> {
    const rows = await this.db.selectFrom("signing_key_generations").selectAll().execute();
    const secrets = [this.env.serverSecret, ...this.env.previousServerSecrets];
    const all: Generation[] = [];
    for (const row of rows) {
      const unwrapped = unwrapSeed(secrets, row.id, { ciphertext: row.seed_ciphertext, wrappingKeyId: row.wrapping_key_id });
      // A seed re-encrypted by a process with a newer secret: the copy this process holds is still good.
      const seed = unwrapped?.seed ?? this.loaded?.all.find((g) => g.id === row.id)?.seed;
      if (!seed) continue;
      all.push({ id: row.id, seed, activatedAt: row.activated_at, retiredAt: row.retired_at });
      if (unwrapped && unwrapped.secret !== this.env.serverSecret) await this.rewrap(row.id, row.wrapping_key_id, unwrapped.seed);
    }
    const current = all.find((g) => g.activatedAt && !g.retiredAt);
    const next = all.find((g) => !g.activatedAt);
    if (!current || !next) {
      throw new SigningKeysUnavailable(
        "The access-token signing keys in the database were encrypted with a server secret this process does not have. " +
          "Set LATCHKEY_SERVER_SECRET to the secret used before, or list it in LATCHKEY_PREVIOUS_SERVER_SECRETS.",
      );
    }
    // A generation gone (expired, or deleted after a leak): tokens it signed must be verified again, and fail.
    if (this.loaded?.all.some((held) => !all.some((g) => g.id === held.id))) this.epoch++;
    return { current, next, all, at: Date.now() };
  }

  /** Moves a seed found under a previous secret to the current one; conditional, so racing processes agree. */
  private async rewrap(id: string, wrappedWith: string, seed: Uint8Array): Promise<void> {
    const wrapped = wrapSeed(this.env.serverSecret, id, seed);
    await this.db
      .updateTable("signing_key_generations")
      .set({ seed_ciphertext: wrapped.ciphertext, wrapping_key_id: wrapped.wrappingKeyId })
      .where("id", "=", id)
      .where("wrapping_key_id", "=", wrappedWith)
      .execute();
  }
}

/**
 * Makes sure a current and a next generation exist, rotates when the current one is older than the rotation
 * interval, and deletes retired generations whose tokens have all expired. Cheap when nothing is due: one
 * read, no lock.
 */
async function ensureGenerations(db: Db, env: Env, now = new Date()): Promise<void> {
  const live = await db.selectFrom("signing_key_generations").select(["activated_at", "retired_at"]).execute();
  const current = live.find((g) => g.activated_at && !g.retired_at);
  const hasNext = live.some((g) => !g.activated_at);
  const rotationDue = current !== undefined && isRotationDue(env, current.activated_at!, now);
  const expired = live.some((g) => g.retired_at && now.getTime() - g.retired_at.getTime() > RETIRED_KEEP_MS);
  if (current && hasNext && !rotationDue && !expired) return;
  await withRotationLock(db, async (trx) => {
    // Again under the lock: another process may have done it meanwhile.
    const rows = await trx.selectFrom("signing_key_generations").select(["id", "activated_at", "retired_at"]).execute();
    const lockedCurrent = rows.find((g) => g.activated_at && !g.retired_at);
    if (!lockedCurrent) await trx.insertInto("signing_key_generations").values({ ...newGeneration(env), activated_at: now }).execute();
    if (!rows.some((g) => !g.activated_at)) await trx.insertInto("signing_key_generations").values(newGeneration(env)).execute();
    if (lockedCurrent && isRotationDue(env, lockedCurrent.activated_at!, now)) await rotateLocked(trx, env, now);
    await trx.deleteFrom("signing_key_generations").where("retired_at", "<", new Date(now.getTime() - RETIRED_KEEP_MS)).execute();
  });
}

function isRotationDue(env: Env, activatedAt: Date, now: Date): boolean {
  return env.signingKeyRotationDays > 0 && now.getTime() - activatedAt.getTime() >= env.signingKeyRotationDays * 86_400_000;
}

/** Rotates now, whatever the interval: the current generation retires, the next signs, a new next is made. */
export async function rotateSigningKeys(db: Db, env: Env, now = new Date()): Promise<void> {
  await ensureGenerations(db, env, now);
  await withRotationLock(db, (trx) => rotateLocked(trx, env, now));
}

async function rotateLocked(trx: Db, env: Env, now: Date): Promise<void> {
  // In this order: the unique indexes allow one current and one next after every statement.
  await trx.updateTable("signing_key_generations").set({ retired_at: now }).where("activated_at", "is not", null).where("retired_at", "is", null).execute();
  await trx.updateTable("signing_key_generations").set({ activated_at: now }).where("activated_at", "is", null).execute();
  await trx.insertInto("signing_key_generations").values(newGeneration(env)).execute();
}

function newGeneration(env: Env) {
  const id = crypto.randomUUID();
  const wrapped = wrapSeed(env.serverSecret, id, newKeySeed());
  return { id, seed_ciphertext: wrapped.ciphertext, wrapping_key_id: wrapped.wrappingKeyId };
}

async function withRotationLock(db: Db, work: (trx: Db) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${ROTATION_LOCK_KEY})`.execute(trx);
    await work(trx);
  });
}
