/**
 * The server's side of the sandbox process (sandbox-process.mjs): started on the first render, restarted after it
 * dies, and not keeping the server (or a test run) alive while idle. A separate process because isolated-vm on
 * Node 20 needs `--no-node-snapshot`, which only a process can be started with, and because a V8 fatal error in an
 * isolate then ends that process, never the server. What comes back over the channel is bounded by the sandbox
 * (sandbox-limits.mjs): the server's event loop never parses or copies a render's output larger than that.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface SandboxRequest {
  templateCode: string;
  themeCode: string | null;
  variables: Record<string, unknown> | undefined;
  user: { displayName: string | null };
  project: { displayName: string };
  unsubscribeLink: string | null;
  previewMode: boolean;
}

/** Bounded in the sandbox (sandbox-limits.mjs) before it was sent here. */
export interface SandboxResult {
  html: string;
  text: string;
  subject: string | null;
  notificationCategory: string | null;
}

/** Raised with the sandbox's own description of what went wrong (runtime error, limit, missing export). */
export class SandboxRenderError extends Error {}

/**
 * A render waits at most this long for the process, including its start and the libraries' first load: past the
 * sandbox's own limits (sandbox-process.mjs, where a load or a call is stopped after 120 s), so only a process
 * that is stuck gets here. Generous, because the sandbox runs at a lower CPU priority and a saturated machine
 * slows it down.
 */
const PROCESS_TIMEOUT_MS = 300_000;

interface Pending {
  process: ChildProcess;
  resolve: (result: SandboxResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let child: ChildProcess | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

function refWhileBusy(process: ChildProcess) {
  // While renders are in flight the process (and its IPC channel) keeps the event loop alive; idle, it does not.
  const channel = (process as ChildProcess & { channel?: { ref(): void; unref(): void } }).channel;
  if (pending.size > 0) {
    process.ref();
    channel?.ref();
  } else {
    process.unref();
    channel?.unref();
  }
}

function settle(id: number, settleWith: (entry: Pending) => void) {
  const entry = pending.get(id);
  if (!entry) return;
  pending.delete(id);
  clearTimeout(entry.timer);
  settleWith(entry);
  if (child) refWhileBusy(child);
}

function sandboxProcess(): ChildProcess {
  if (child && child.connected) return child;
  const started = fork(fileURLToPath(new URL("./sandbox-process.mjs", import.meta.url)), [], {
    execArgv: ["--no-node-snapshot"],
    // Its stderr is only read to say why it died (V8 prints its fatal out-of-memory report there).
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "advanced",
  });
  let stderrTail = "";
  started.stderr?.setEncoding("utf8");
  started.stderr?.on("data", (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-8192);
  });
  // A pipe keeps the event loop alive on its own; the process's own reference is managed by refWhileBusy.
  (started.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  started.on("message", (message: { id?: number; ok?: boolean; result?: SandboxResult; error?: string }) => {
    if (typeof message?.id !== "number") return;
    settle(message.id, (entry) =>
      message.ok ? entry.resolve(message.result!) : entry.reject(new SandboxRenderError(message.error ?? "unknown error")),
    );
  });
  const stopped = () => {
    if (child === started) child = null;
    const reason = /out of memory|is_heap_oom|allocation failed/i.test(stderrTail)
      ? "the render used more than the sandbox's memory (the sandbox process ran out of memory)"
      : "the sandbox process stopped during the render";
    for (const [id, entry] of [...pending]) {
      if (entry.process !== started) continue;
      settle(id, (stale) => stale.reject(new SandboxRenderError(reason)));
    }
  };
  // "close", not "exit": by then stderr has been read to its end.
  started.on("close", stopped);
  started.on("error", stopped);
  child = started;
  return started;
}

export function renderInSandbox(projectId: string | null, request: SandboxRequest): Promise<SandboxResult> {
  const process = sandboxProcess();
  const id = nextId++;
  return new Promise<SandboxResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      settle(id, (entry) => entry.reject(new SandboxRenderError("the sandbox did not answer in time")));
      // Something is stuck beyond the per-render limits: start afresh.
      process.kill("SIGKILL");
    }, PROCESS_TIMEOUT_MS);
    pending.set(id, { process, resolve, reject, timer });
    refWhileBusy(process);
    process.send({ type: "render", id, projectId, request }, (error) => {
      if (error) settle(id, (entry) => entry.reject(new SandboxRenderError("the sandbox process could not be reached")));
    });
  });
}

/** Stops the sandbox process (tests, shutdown); the next render starts a new one. */
export function stopSandboxProcess(): void {
  child?.kill("SIGKILL");
  child = null;
}
