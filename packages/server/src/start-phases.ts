import type { Logger } from "pino";

/**
 * One debug line per start phase (`LATCHKEY_LOG_LEVEL=debug`): `{"phase":"PGlite open","ms":…,"cpuMs":…}`, the
 * wall and CPU time since the phase before, so a slow start says where it went (issue 35, bench/cold-start.mjs
 * prints them). Phases before the logger exists (scripts/start.mjs: the builds checked) are handed over in
 * `globalThis[START_PHASES]` (`{ phases, last }`, `last` the wall and CPU milliseconds where the next phase begins)
 * and logged first.
 */
export const START_PHASES = Symbol.for("latchkey.startPhases");

export interface StartPhase {
  phase: string;
  ms: number;
  cpuMs: number;
}

type Mark = { at: number; cpu: number };

function now(): Mark {
  const cpu = process.cpuUsage();
  return { at: performance.now(), cpu: (cpu.user + cpu.system) / 1000 };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export interface StartPhases {
  /** Logs the phase that ends now (the time since the last phase ended). */
  done(phase: string, fields?: Record<string, unknown>): void;
}

let firstStart = true;

export function startPhases(log: Logger): StartPhases {
  // The process's first start also says how long loading took: from the process's start (or from where
  // scripts/start.mjs left off) until here.
  let last: Mark = now();
  if (firstStart) {
    firstStart = false;
    const handed = (globalThis as { [START_PHASES]?: { phases: StartPhase[]; last: Mark } })[START_PHASES];
    delete (globalThis as { [START_PHASES]?: unknown })[START_PHASES];
    for (const { phase, ms, cpuMs } of handed?.phases ?? []) log.debug({ phase, ms: round(ms), cpuMs: round(cpuMs) }, "start phase");
    const from = handed?.last ?? { at: 0, cpu: 0 };
    log.debug({ phase: "server code loaded", ms: round(last.at - from.at), cpuMs: round(last.cpu - from.cpu) }, "start phase");
  }
  return {
    done(phase, fields) {
      if (!log.isLevelEnabled("debug")) return;
      const mark = now();
      log.debug({ phase, ms: round(mark.at - last.at), cpuMs: round(mark.cpu - last.cpu), ...fields }, "start phase");
      last = mark;
    },
  };
}

/** Times a part started on first use rather than at start (the email sandbox, the development OpenID provider). */
export async function timedFirstUse<T>(log: Pick<Logger, "debug">, part: string, start: () => Promise<T>): Promise<T> {
  const begun = now();
  const result = await start();
  const mark = now();
  log.debug({ part, ms: round(mark.at - begun.at), cpuMs: round(mark.cpu - begun.cpu) }, "started on first use");
  return result;
}
