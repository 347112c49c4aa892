import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { ProjectRow } from "../db/rows.js";

/**
 * "Maybe sent" answers (`/auth/password/send-reset-code`: "maybe, only if user with e-mail exists") must not
 * tell by their timing whether a mail went out. For an existing account the mail is handed to the mail server
 * before the answer (so a client that got the answer can rely on the mail being on its way); for an unknown
 * address nothing is sent, and the answer instead waits as long as a send would have taken.
 *
 * Design. How long a send takes depends on the mail server (connection, TLS, greeting, authentication, DATA),
 * not on the address, so each process keeps, per mail server, a moving window of the durations of its last
 * real sends (every mail an auth flow sends feeds it, not only the maybe-sent ones). The unknown path sleeps
 * one duration drawn uniformly from that window, stretched by ±10 % jitter so that it does not repeat exact
 * values. Drawn this way the delays follow the distribution of real sends, outliers included, and move with
 * it when the server gets slower or faster; a fixed or averaged delay would not. A window that is still empty
 * (no send to that server since the process started) borrows from the other servers' windows, and with none at
 * all a delay is drawn from a plausible SMTP range. The work before the send (lookups, the send throttle,
 * storing a code) is the same on both paths, so only the send itself is imitated.
 *
 * The windows live in process memory on purpose: they describe this process's own network path to each
 * mail server, are cheap to lose, and must not cost a database write per mail.
 */

/** How many recent sends per mail server the delay is drawn from. */
export const SEND_WINDOW_SIZE = 64;
/** Bound on the mail servers remembered (projects may each have their own); the least recently used goes. */
const MAX_MAIL_SERVERS = 1000;
/** Multiplicative jitter on a drawn duration: ±10 %. */
const JITTER = 0.1;
/** With nothing measured yet: a remote SMTP conversation takes a few hundred milliseconds. */
const COLD_START_RANGE_MS = { min: 150, max: 600 } as const;

/** Moving windows of send durations, per mail server, and delays drawn from them. */
export class SendDurations {
  private readonly windows = new Map<string, number[]>();

  constructor(
    private readonly windowSize = SEND_WINDOW_SIZE,
    private readonly random: () => number = Math.random,
  ) {}

  /** Records how long a real send to `mailServer` took. */
  record(mailServer: string, ms: number): void {
    const window = this.windows.get(mailServer) ?? [];
    window.push(ms);
    if (window.length > this.windowSize) window.shift();
    // Re-inserted, so the map's order is least recently used first.
    this.windows.delete(mailServer);
    this.windows.set(mailServer, window);
    if (this.windows.size > MAX_MAIL_SERVERS) this.windows.delete(this.windows.keys().next().value!);
  }

  /** The durations recorded for `mailServer`, oldest first. */
  recorded(mailServer: string): readonly number[] {
    return this.windows.get(mailServer) ?? [];
  }

  /** A delay distributed like a real send to `mailServer` (see the design above), in ms. */
  sample(mailServer: string): number {
    const own = this.windows.get(mailServer);
    const window = own && own.length > 0 ? own : [...this.windows.values()].flat();
    const jitter = 1 - JITTER + 2 * JITTER * this.random();
    if (window.length === 0) return (COLD_START_RANGE_MS.min + (COLD_START_RANGE_MS.max - COLD_START_RANGE_MS.min) * this.random()) * jitter;
    return window[Math.min(window.length - 1, Math.floor(this.random() * window.length))]! * jitter;
  }
}

/**
 * The process's send timing: `timedSend` around every real send of an auth flow, `waitLikeASend` where a
 * maybe-sent answer sends nothing. An object (not bare functions) so that tests can watch or replace the wait.
 */
export const sendTiming = {
  durations: new SendDurations(),
  /** Runs a real send to the project's mail server and records how long it took. */
  async timedSend<T>(project: ProjectRow, send: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await send();
    } finally {
      sendTiming.durations.record(mailServerOf(project), performance.now() - started);
    }
  },
  /** Waits about as long as a send to the project's mail server takes. */
  waitLikeASend(project: ProjectRow): Promise<void> {
    const ms = sendTiming.durations.sample(mailServerOf(project));
    return new Promise((resolve) => setTimeout(resolve, ms));
  },
};

/** Which mail server a project's mail goes through: the shared one, or the project's own SMTP server. */
export function mailServerOf(project: ProjectRow): string {
  const server = renderProjectConfig(project.config_override as ConfigObject).emails.server;
  if (server.isShared) return "shared";
  return `smtp://${encodeURIComponent(server.username ?? "")}@${server.host ?? ""}:${server.port ?? ""}`;
}
