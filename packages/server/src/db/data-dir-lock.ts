import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { StartupError } from "../startup-error.js";

/**
 * One server process per embedded data dir. PGlite is a single-process database: two processes opening the
 * same files each keep their own copy in memory and overwrite each other's writes (issue 17 lost 15 of 30
 * confirmed sign-ups that way). The owner holds `latchkey.lock`, created exclusively, naming its pid, host
 * and boot; a lock whose process is gone (killed with -9, or a reboot since) is stale and taken over.
 */
export interface DataDirLock {
  release(): void;
}

export const DATA_DIR_LOCK_FILE = "latchkey.lock";

interface LockOwner {
  pid: number;
  host: string;
  boot: string;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname(), boot: bootId() };
  // Two attempts: the second follows the removal of a stale lock (if another process took it over in
  // between, the exclusive create fails again and that process is reported as the owner).
  for (let attempt = 0; attempt < 2; attempt++) {
    const fd = tryCreateExclusive(path);
    if (fd !== undefined) {
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return ownedLock(path);
    }
    const owner = readOwner(path);
    if (owner && isAlive(owner, me)) {
      throw new StartupError(
        `The data dir ${dataDir} is in use by another Latchkey process (pid ${owner.pid} on ${owner.host}). ` +
          `Stop it first; several processes need real PostgreSQL (LATCHKEY_DATABASE_URL).`,
      );
    }
    removeIfUnchanged(path, owner);
  }
  throw new StartupError(`Could not lock the data dir ${dataDir}: another process keeps taking ${DATA_DIR_LOCK_FILE}. Stop the other Latchkey processes.`);
}

function ownedLock(path: string): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      unlinkSync(path);
    } catch {
      // Already gone (someone removed the data dir): nothing to release.
    }
  };
  // Also on process.exit() without a clean close; a SIGKILL leaves the file, detected as stale next time.
  process.on("exit", release);
  return { release };
}

function tryCreateExclusive(path: string): number | undefined {
  try {
    return openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw new StartupError(`Cannot write to the data dir ${path.slice(0, -DATA_DIR_LOCK_FILE.length - 1)}: ${(error as Error).message}. Check LATCHKEY_DATA_DIR and its permissions.`);
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockOwner>;
    if (typeof parsed.pid === "number" && typeof parsed.host === "string" && typeof parsed.boot === "string") return parsed as LockOwner;
  } catch {
    // Unreadable or half-written by a process killed while writing it: stale.
  }
  return undefined;
}

/** A lock from another machine (a shared disk) cannot be checked, so it counts as held. */
function isAlive(owner: LockOwner, me: LockOwner): boolean {
  if (owner.host !== me.host) return true;
  if (owner.boot !== me.boot) return false;
  if (owner.pid === me.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeIfUnchanged(path: string, owner: LockOwner | undefined): void {
  if (JSON.stringify(readOwner(path)) !== JSON.stringify(owner)) return;
  try {
    unlinkSync(path);
  } catch {
    // Removed by another process taking over the same stale lock: the next attempt decides.
  }
}

/** Linux's id of this boot: a pid recorded before a reboot names some other process now. */
function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return "";
  }
}
