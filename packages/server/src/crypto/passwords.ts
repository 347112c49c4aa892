import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { availableParallelism } from "node:os";

/**
 * Password hashing. New hashes are argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1), computed on
 * libuv's thread pool so the event loop keeps serving. Imported hashes in modular crypt format (bcrypt
 * `$2a$`/`$2b$`/`$2y$`, argon2 `$argon2id$`/`$argon2i$`/`$argon2d$`) verify too and are re-hashed with our
 * parameters after the next successful sign-in.
 */
const ARGON2_OPTIONS = { algorithm: 2 /* Algorithm.Argon2id, a const enum */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const OUR_PREFIX = "$argon2id$v=19$m=19456,t=2,p=1$";

/** At most `size` tasks at once; the others wait in arrival order. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  constructor(size: number) {
    this.free = Math.max(1, size);
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/**
 * An argon2 run holds 19 MiB and a core for about 10 ms. Running more at once than there are cores makes
 * each one slower (measured here: ~10 ms of CPU per verification one at a time, ~15 ms four at a time on
 * two cores) and fills libuv's pool, which DNS lookups and file access share; so runs wait here for one of
 * `availableParallelism()` slots.
 */
const slots = new Slots(availableParallelism());

/**
 * Hashes computed and checked by this process since it started, for `/metrics` (http/metrics.ts), whose
 * rate is the hashing throughput. Counted when a run finishes, whatever its verdict.
 */
export const passwordHashRuns = { argon2Hash: 0, argon2Verify: 0, bcryptVerify: 0 };

export async function hashPassword(password: string): Promise<string> {
  const hash = await slots.run(() => argon2Hash(password, ARGON2_OPTIONS));
  passwordHashRuns.argon2Hash++;
  return hash;
}

async function argon2VerifyCounted(hash: string, password: string): Promise<boolean> {
  const matches = await slots.run(() => argon2Verify(hash, password));
  passwordHashRuns.argon2Verify++;
  return matches;
}

/** bcrypt costs an imported hash may have: 4 is bcrypt's least, and above 16 one sign-in would cost seconds of CPU. */
const BCRYPT_COSTS = { min: 4, max: 16 } as const;

export function isSupportedPasswordHash(hash: string): boolean {
  const bcryptHash = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/.exec(hash);
  if (bcryptHash) {
    const cost = Number(bcryptHash[1]);
    return cost >= BCRYPT_COSTS.min && cost <= BCRYPT_COSTS.max;
  }
  return /^\$argon2(id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.test(hash);
}

// Only imported users' passwords are bcrypt hashes: loaded with the first one verified, off every start (issue 35).
let bcryptPackage: Promise<typeof import("bcryptjs")> | undefined;

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  // Outside the try: a package that cannot load is the server's fault, not a wrong password.
  const bcrypt = hash.startsWith("$2") ? (await (bcryptPackage ??= import("bcryptjs"))).default : undefined;
  try {
    if (bcrypt) {
      const matches = await bcrypt.compare(password, hash);
      passwordHashRuns.bcryptVerify++;
      return matches;
    }
    if (hash.startsWith("$argon2")) return await argon2VerifyCounted(hash, password);
  } catch {
    // A malformed stored hash verifies nothing.
  }
  return false;
}

/** Whether a hash should be replaced by one with our algorithm and parameters after a successful check. */
export function needsRehash(hash: string): boolean {
  return !hash.startsWith(OUR_PREFIX);
}

// Signing in with an unknown email still costs one hash verification, so response time does not tell
// whether an account exists.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword("latchkey-dummy-password-for-constant-time");
  const hash = await dummyHash;
  await argon2VerifyCounted(hash, password).catch(() => false);
  return false;
}
