// CPU accounting from /proc (Linux), so a run can say how much CPU the driven server spent per request and
// how much of the machine went to processes outside the bench (a test suite running alongside makes req/s
// and latencies noisy; CPU per request much less so). Elsewhere than Linux every figure is NaN.
import { readFileSync, readdirSync } from "node:fs";

// USER_HZ is 100 on every Linux architecture Node supports.
const MS_PER_TICK = 10;

/** Busy and total CPU time of the whole machine, in ms. */
function machine() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = fields[3] + (fields[4] ?? 0);
    return { busy: (total - idle) * MS_PER_TICK, total: total * MS_PER_TICK };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/**
 * CPU ms (user + system) of live processes, by process group, of all `postgres` processes, and of the PostgreSQL
 * backends serving each database (by the database name in their process title, `postgres: user database host`).
 */
function processes() {
  const byGroup = new Map();
  const postgresBackends = new Map();
  let postgres = 0;
  let entries = [];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return { byGroup, postgres: NaN, postgresBackends };
  }
  for (const pid of entries) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ms = (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
    const group = Number(fields[2]);
    byGroup.set(group, (byGroup.get(group) ?? 0) + ms);
    if (comm === "postgres") {
      postgres += ms;
      const database = backendDatabase(pid);
      if (database) postgresBackends.set(pid, { database, ms });
    }
  }
  return { byGroup, postgres, postgresBackends };
}

function backendDatabase(pid) {
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    // Debian titles carry the cluster first: `postgres: 15/main: user database host`.
    return /^postgres: (?:\S+: )?\S+ (\S+) /.exec(title)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * CPU ms of the PostgreSQL backends of `database` between two snapshots (those still connected at the second: a
 * pool's connections); unlike all `postgres` processes, not skewed by other databases' work on the same server, but
 * without the server's shared processes (WAL writer, checkpointer), which the statements also keep busy.
 */
export function postgresBackendsBetween(before, after, database) {
  if (!after.postgresBackends) return NaN;
  let ms = 0;
  for (const [pid, backend] of after.postgresBackends) {
    if (backend.database === database) ms += backend.ms - (before.postgresBackends?.get(pid)?.ms ?? 0);
  }
  return ms;
}

export function cpuSnapshot() {
  const usage = process.cpuUsage();
  return { machine: machine(), ...processes(), self: (usage.user + usage.system) / 1000 };
}

/**
 * Between two snapshots: CPU ms of process group `group`, and the share of the machine's capacity used by
 * processes that are neither in `ourGroups`, nor PostgreSQL, nor this process.
 */
export function cpuBetween(before, after, group, ourGroups) {
  const groupMs = (snapshot, g) => snapshot.byGroup.get(g) ?? 0;
  const ours =
    ourGroups.reduce((sum, g) => sum + groupMs(after, g) - groupMs(before, g), 0) + (after.postgres - before.postgres) + (after.self - before.self);
  const busy = after.machine.busy - before.machine.busy;
  const total = after.machine.total - before.machine.total;
  return {
    serverMs: groupMs(after, group) - groupMs(before, group),
    otherPercent: Math.max(0, (100 * (busy - ours)) / total),
  };
}

/**
 * CPU ms (user + system) of one process's main thread (`mainSystem`: the part spent in the kernel, on its behalf) and of its other threads together (libuv's thread
 * pool, where password hashes run, and V8's garbage collector and compiler threads); NaN when it is gone.
 */
export function threadsCpu(pid) {
  const times = (path) => {
    const stat = readFileSync(path, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { user: Number(fields[11]) * MS_PER_TICK, system: Number(fields[12]) * MS_PER_TICK };
  };
  try {
    const main = times(`/proc/${pid}/task/${pid}/stat`);
    const all = times(`/proc/${pid}/stat`);
    return { main: main.user + main.system, mainSystem: main.system, others: all.user + all.system - main.user - main.system };
  } catch {
    return { main: NaN, mainSystem: NaN, others: NaN };
  }
}
