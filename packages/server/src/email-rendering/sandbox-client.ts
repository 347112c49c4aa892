/**
 * The server's side of the sandbox process (sandbox-process.mjs): started on the first render, restarted after it
 * dies, and not keeping the server (or a test run) alive while idle. A separate process because isolated-vm on
 * Node 20 needs `--no-node-snapshot`, which only a process can be started with, and because a V8 fatal error in an
 * isolate then ends that process, never the server. What comes back over the channel is bounded by the sandbox
 * (sandbox-limits.mjs): the server's event loop never parses or copies a render's output larger than that.
 */
import { fork, type ChildProcess, type Serializable } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { readFrames, writeFrame } from "./sandbox-frames.mjs";

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

/**
 * Where renders go: the sandbox process this server forked (its IPC channel), or a connection to one shared by
 * several servers (LATCHKEY_TEST_EMAIL_SANDBOX_SOCKET, test/support/email-sandbox.global.ts).
 */
interface SandboxChannel {
  send(message: unknown, done: (error: Error | null) => void): void;
  /** Keeps the event loop alive while renders are in flight; idle, it does not. */
  hold(busy: boolean): void;
  /** Ends this server's use of it: the forked process is killed, a shared one only disconnected from. */
  abandon(): void;
  /** False once the process is gone or the connection closed (before the close is reported). */
  usable(): boolean;
}

interface Pending {
  channel: SandboxChannel;
  resolve: (result: SandboxResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let current: SandboxChannel | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

function settle(id: number, settleWith: (entry: Pending) => void) {
  const entry = pending.get(id);
  if (!entry) return;
  pending.delete(id);
  clearTimeout(entry.timer);
  settleWith(entry);
  current?.hold(pending.size > 0);
}

function answered(message: { id?: number; ok?: boolean; result?: SandboxResult; error?: string }) {
  if (typeof message?.id !== "number") return;
  settle(message.id, (entry) => (message.ok ? entry.resolve(message.result!) : entry.reject(new SandboxRenderError(message.error ?? "unknown error"))));
}

/** Every render still waiting on `channel` fails with `reason`; the next render opens a new channel. */
function lost(channel: SandboxChannel, reason: string) {
  if (current === channel) current = null;
  for (const [id, entry] of [...pending]) {
    if (entry.channel !== channel) continue;
    settle(id, (stale) => stale.reject(new SandboxRenderError(reason)));
  }
}

function forkedSandbox(): SandboxChannel {
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
  // A pipe keeps the event loop alive on its own; the process's own reference is managed by hold().
  (started.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const ipc = (started as ChildProcess & { channel?: { ref(): void; unref(): void } }).channel;
  const channel: SandboxChannel = {
    send: (message, done) => started.send(message as Serializable, (error) => done(error ?? null)),
    hold(busy) {
      if (busy) {
        started.ref();
        ipc?.ref();
      } else {
        started.unref();
        ipc?.unref();
      }
    },
    abandon: () => started.kill("SIGKILL"),
    usable: () => started.connected,
  };
  started.on("message", answered);
  const stopped = () =>
    lost(
      channel,
      /out of memory|is_heap_oom|allocation failed/i.test(stderrTail)
        ? "the render used more than the sandbox's memory (the sandbox process ran out of memory)"
        : "the sandbox process stopped during the render",
    );
  // "close", not "exit": by then stderr has been read to its end.
  started.on("close", stopped);
  started.on("error", stopped);
  return channel;
}

function sharedSandbox(socketPath: string): SandboxChannel {
  const socket = connect(socketPath);
  const channel: SandboxChannel = {
    send: (message, done) => writeFrame(socket, message, (error) => done(error ?? null)),
    hold: (busy) => (busy ? socket.ref() : socket.unref()),
    abandon: () => socket.destroy(),
    usable: () => !socket.destroyed,
  };
  readFrames(socket, (message) => answered(message as Parameters<typeof answered>[0]));
  socket.on("error", () => {});
  socket.on("close", () => lost(channel, "the sandbox process stopped during the render"));
  return channel;
}

function sandboxChannel(): SandboxChannel {
  const shared = process.env.LATCHKEY_TEST_EMAIL_SANDBOX_SOCKET;
  if (!current?.usable()) current = shared ? sharedSandbox(shared) : forkedSandbox();
  return current;
}

export function renderInSandbox(projectId: string | null, request: SandboxRequest): Promise<SandboxResult> {
  const channel = sandboxChannel();
  const id = nextId++;
  return new Promise<SandboxResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      settle(id, (entry) => entry.reject(new SandboxRenderError("the sandbox did not answer in time")));
      // Something is stuck beyond the per-render limits: start afresh.
      channel.abandon();
    }, PROCESS_TIMEOUT_MS);
    pending.set(id, { channel, resolve, reject, timer });
    channel.hold(true);
    channel.send({ type: "render", id, projectId, request }, (error) => {
      if (error) settle(id, (entry) => entry.reject(new SandboxRenderError("the sandbox process could not be reached")));
    });
  });
}

/** Stops the sandbox process (tests, shutdown); the next render starts a new one. */
export function stopSandboxProcess(): void {
  current?.abandon();
  current = null;
}
