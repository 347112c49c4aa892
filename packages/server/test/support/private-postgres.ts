import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A PostgreSQL server of the test's own (initdb in a temporary directory, run as the `postgres` user), for tests
 * that stop and start the database under a running Latchkey server — which the suite's shared server must never
 * go through. Needs the machine's PostgreSQL binaries and root (as CI runs) to act as `postgres`.
 */
export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  remove(): void;
}

export function privatePostgresAvailable(): boolean {
  return process.getuid?.() === 0 && binDir() !== undefined;
}

export function createPrivatePostgres(port: number): PrivatePostgres {
  const bin = binDir()!;
  const dir = mkdtempSync(join(tmpdir(), "latchkey-pg-"));
  chmodSync(dir, 0o755);
  const data = join(dir, "data");
  const { uid, gid } = postgresUser();
  chownSync(dir, uid, gid);
  const asPostgres = (command: string, args: string[]) => execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", [join(bin, command), ...args.map(quote)].join(" ")], { stdio: "pipe" });
  asPostgres("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync"]);
  const start = () => asPostgres("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-t", "60", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "start"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => asPostgres("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    start,
    remove() {
      try {
        asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function binDir(): string | undefined {
  try {
    const version = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a))[0];
    return version ? `/usr/lib/postgresql/${version}/bin` : undefined;
  } catch {
    return undefined;
  }
}

function postgresUser(): { uid: number; gid: number } {
  const [uid, gid] = execFileSync("id", ["-u", "postgres"]).toString().trim().split("\n").concat(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid: Number(uid), gid: Number(gid) };
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
