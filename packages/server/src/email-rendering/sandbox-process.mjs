// The sandbox process: the server forks this file (sandbox-client.ts) with `--no-node-snapshot`, which
// isolated-vm needs on Node 20 and which the server and vitest then do not need themselves. A crash in here
// (a V8 fatal error) ends this process, not the server; the client starts a new one on the next render.
//
// Each render runs in a V8 isolate (isolated-vm) holding only the language's globals plus the library bundle:
// no require, process, fetch, file system, network or timers. Limits per render: 64 MB of heap for the isolate,
// 1 s of CPU time for the render and 1 s more for its plain text (so a busy machine that makes a render slow does
// not fail it), and 20 s of waiting for a render that waits on something that never comes; and the sizes of
// sandbox-limits.mjs for what comes out, checked inside the isolate before anything is copied out of it.
// An isolate serves one project: renders that name a projectId reuse that project's warm isolate (the first
// costs ~0.4 s of CPU to load the libraries, see sandbox-library.mjs and codeCacheAfterRun; later ones ~5 ms),
// renders without one get a fresh isolate that is disposed afterwards. Projects never share an isolate, and each render of a warm one starts from the state the
// libraries loaded into (sandbox-runtime/lockdown.js).
import { readdirSync } from "node:fs";
import { setPriority } from "node:os";
import { buildSandboxLibrary } from "./sandbox-library.mjs";
import { cutText, MAX_CATEGORY_CHARS, MAX_HTML_CHARS, MAX_SUBJECT_CHARS, MAX_TEXT_CHARS } from "./sandbox-limits.mjs";

/**
 * Renders are background work next to the server's requests: on a busy machine the server's thread gets the CPU
 * first (issue 30 §1: hostile renders stalled `/health` for everyone). Linux keeps a niceness per thread and a new
 * thread takes its creator's, so every thread of this process is reniced now, before isolated-vm starts its own,
 * and again after each new isolate. A render slowed down this way is not stopped for it: its limits count the
 * CPU it used and the time it spent waiting with nothing to run, never the time it waited for a CPU.
 */
const NICENESS = 10;
function lowerPriority() {
  let threads = [0];
  try {
    threads = readdirSync("/proc/self/task").map(Number);
  } catch {
    // not Linux: the calling thread only
  }
  for (const thread of threads) {
    try {
      setPriority(thread, NICENESS);
    } catch {
      // not permitted, or the thread has ended
    }
  }
}
lowerPriority();
const { default: ivm } = await import("isolated-vm");

const MEMORY_LIMIT_MB = 64;
const RENDER_CPU_LIMIT_MS = 1000;
/** How long a call may wait with nothing to run (a promise that never settles), however busy the machine. */
const RENDER_WAIT_LIMIT_MS = 20_000;
/** isolated-vm's own wall-clock limit on a call: only for something stuck beyond the limits above. */
const RENDER_HARD_LIMIT_MS = 120_000;
/** How often a render's CPU time and waiting are checked against their limits. */
const CPU_CHECK_INTERVAL_MS = 20;
const OVER_WALL_MESSAGE = `the render waited more than ${RENDER_WAIT_LIMIT_MS / 1000} s for something that never came`;
const OVER_HARD_LIMIT_MESSAGE = `the render did not finish within ${RENDER_HARD_LIMIT_MS / 1000} s`;
/** Loading the libraries into a new isolate (trusted code; not counted in the render's own 1 s). */
const LOAD_TIMEOUT_MS = RENDER_HARD_LIMIT_MS;
const MAX_WARM_ISOLATES = Math.max(1, Number(/^\d+$/.test(process.env.LATCHKEY_EMAIL_SANDBOX_WARM ?? "") ? process.env.LATCHKEY_EMAIL_SANDBOX_WARM : 8));
const IDLE_DISPOSE_MS = 10 * 60 * 1000;
/** The largest answer the isolate's JSON can be: both texts at the limit, every character escaped (`\u0000`). */
const MAX_ANSWER_CHARS = 6 * (MAX_HTML_CHARS + MAX_TEXT_CHARS + MAX_SUBJECT_CHARS + MAX_CATEGORY_CHARS) + 1000;

class RenderLimitError extends Error {}
/** The sandbox could not be put back in its loaded state: the render is asked of a fresh one. */
class DirtySandboxError extends Error {}

let libraryScript = null; // Promise<{ source, cachedData }>
function library() {
  libraryScript ??= buildSandboxLibrary().then(
    (source) => ({ source, cachedData: undefined }),
    (error) => {
      libraryScript = null; // the next render tries again
      throw error;
    },
  );
  return libraryScript;
}

const LIBRARY_FILENAME = "latchkey-email-library.js";

/**
 * V8's code cache of the library as it is once it has run: V8 compiles most of a script's functions only when they
 * first run, so a cache made at compile time holds little more than the top level and every new isolate compiled the
 * rest again while loading. Compiling the same source again in the isolate that ran it finds those functions
 * compiled (V8's compilation cache), and the cache made then holds them: a new isolate loads the libraries in ~0.40
 * s of CPU instead of ~0.59 s. Made from the library's source only, before any template runs; V8 checks a cache
 * against the source and ignores one that does not match.
 */
async function codeCacheAfterRun(isolate, source) {
  const again = await isolate.compileScript(source, { filename: LIBRARY_FILENAME, produceCachedData: true });
  const { cachedData } = again;
  again.release();
  return cachedData;
}

async function createSandbox() {
  const lib = await library();
  const isolate = new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_MB });
  lowerPriority();
  try {
    const context = await isolate.createContext();
    const script = await isolate.compileScript(lib.source, { filename: LIBRARY_FILENAME, cachedData: lib.cachedData });
    await script.run(context, { timeout: LOAD_TIMEOUT_MS });
    script.release();
    if (lib.cachedData === undefined) lib.cachedData = await codeCacheAfterRun(isolate, lib.source);
    const entries = await context.global.get("__latchkeySandbox", { reference: true });
    const render = await entries.get("render", { reference: true });
    const plainText = await entries.get("plainText", { reference: true });
    const prepareCodeBlock = await entries.get("prepareCodeBlock", { reference: true });
    await context.eval("__latchkeySandbox.lockdown()", { timeout: LOAD_TIMEOUT_MS });
    entries.release();
    return { isolate, context, render, plainText, prepareCodeBlock, codeBlockReady: false };
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    throw error;
  }
}

function dispose(sandbox) {
  if (!sandbox.isolate.isDisposed) sandbox.isolate.dispose();
}

/**
 * Warm isolates by project id, least recently used first (a Map keeps insertion order). A record counts the
 * renders holding it from the moment they pick it, so one leaving the pool (evicted, idle, stopped by a limit) is
 * disposed only after those renders are done.
 */
const warmSandboxes = new Map();

function retire(record) {
  if (warmSandboxes.get(record.projectId) === record) warmSandboxes.delete(record.projectId);
  clearTimeout(record.idleTimer);
  record.retired = true;
  if (record.active === 0) record.ready.then(dispose, () => {});
}

function pickWarmSandbox(projectId) {
  let record = warmSandboxes.get(projectId);
  if (record) {
    warmSandboxes.delete(projectId);
    warmSandboxes.set(projectId, record);
  } else {
    record = { projectId, ready: createSandbox(), queue: Promise.resolve(), active: 0, retired: false, idleTimer: null };
    record.ready.catch(() => retire(record));
    warmSandboxes.set(projectId, record);
    while (warmSandboxes.size > MAX_WARM_ISOLATES) retire(warmSandboxes.values().next().value);
  }
  record.active++;
  clearTimeout(record.idleTimer);
  return record;
}

function release(record) {
  record.active--;
  if (record.active > 0) return;
  if (record.retired) record.ready.then(dispose, () => {});
  else record.idleTimer = setTimeout(() => retire(record), IDLE_DISPOSE_MS).unref();
}

/**
 * One call into the isolate under its limits. isolated-vm's `cpuTime` and `wallTime` count the time the isolate's
 * thread is inside the isolate, descheduled or not, and this process's CPU usage counts every thread of it (other
 * renders too). A call has used its CPU time when both say so: a runaway template does, a render merely slowed
 * down by a loaded machine does not. (Renders running at once share the process's figure: one is stopped early
 * only if it also spent a second inside.) The time a call is not inside the isolate at all is time spent waiting
 * for a promise; a render slowed down by the machine is inside.
 */
async function limited(sandbox, what, call) {
  const { isolate } = sandbox;
  const limitNs = BigInt(RENDER_CPU_LIMIT_MS) * 1_000_000n;
  const insideAtStart = isolate.cpuTime;
  const wallAtStart = isolate.wallTime;
  const startedAt = performance.now();
  const processAtStart = process.cpuUsage();
  let overCpu = false;
  let overWait;
  const waiting = new Promise((_, reject) => (overWait = reject));
  // The isolate runs on its own thread, so this process's timers keep firing during the call. Over the CPU
  // limit, the isolate is disposed: the only way to stop it from outside (it then leaves the pool).
  const watch = setInterval(() => {
    if (isolate.isDisposed) return;
    const waitedMs = performance.now() - startedAt - Number(isolate.wallTime - wallAtStart) / 1e6;
    if (waitedMs > RENDER_WAIT_LIMIT_MS) overWait(new RenderLimitError(OVER_WALL_MESSAGE));
    if (isolate.cpuTime - insideAtStart <= limitNs) return;
    const used = process.cpuUsage(processAtStart);
    if ((used.user + used.system) / 1000 > RENDER_CPU_LIMIT_MS) {
      overCpu = true;
      isolate.dispose();
    }
  }, CPU_CHECK_INTERVAL_MS);
  try {
    const json = await Promise.race([call(), waiting]);
    // The isolate bounds its answer; this is the fence behind it, before anything is parsed or sent on.
    if (typeof json !== "string" || json.length > MAX_ANSWER_CHARS) throw new Error("the sandbox answered something unexpected");
    return JSON.parse(json);
  } catch (error) {
    throw overCpu ? new RenderLimitError(`${what} ran longer than ${RENDER_CPU_LIMIT_MS / 1000} s`) : error;
  } finally {
    clearInterval(watch);
  }
}

/** The template's own failure, as the isolate described it (already bounded there). */
class TemplateError extends Error {
  constructor(message, dirty) {
    super(message);
    this.dirty = dirty;
  }
}

/** Renders in the sandbox, then makes the plain text in a second call with its own CPU time. */
async function runInSandbox(sandbox, requestJson) {
  if (!sandbox.codeBlockReady && requestJson.includes("CodeBlock")) {
    // The libraries' last part, loaded as the rest was: trusted code, before the template runs, outside its 1 s.
    const clean = await sandbox.prepareCodeBlock.apply(undefined, [], { timeout: LOAD_TIMEOUT_MS, result: { copy: true } });
    if (clean !== true) throw new DirtySandboxError("the sandbox could not be reset");
    sandbox.codeBlockReady = true;
  }
  const options = { timeout: RENDER_HARD_LIMIT_MS, result: { promise: true, copy: true } };
  const status = await limited(sandbox, "the render", () => sandbox.render.apply(undefined, [requestJson], options));
  if (!status.ok && status.dirty && typeof status.error !== "string") throw new DirtySandboxError("the sandbox could not be reset");
  if (!status.ok) throw new TemplateError(String(status.error), status.dirty === true);
  const mail = await limited(sandbox, "making the plain text", () => sandbox.plainText.apply(undefined, [], { timeout: RENDER_HARD_LIMIT_MS, result: { copy: true } }));
  if (!mail.ok) throw new TemplateError(String(mail.error), mail.dirty === true);
  const text = (value, max) => typeof value === "string" && value.length <= max;
  const optional = (value, max) => value === null || text(value, max);
  if (!text(mail.html, MAX_HTML_CHARS) || !text(mail.text, MAX_TEXT_CHARS) || !optional(mail.subject, MAX_SUBJECT_CHARS) || !optional(mail.notificationCategory, MAX_CATEGORY_CHARS)) {
    throw new Error("the sandbox answered something unexpected");
  }
  return { result: { html: mail.html, text: mail.text, subject: mail.subject, notificationCategory: mail.notificationCategory }, dirty: mail.dirty === true };
}

function describe(error, isolate) {
  if (error instanceof RenderLimitError || error instanceof TemplateError) return cutText(error.message);
  const message = String(error?.message ?? error);
  if (/memory limit/i.test(message) || (isolate.isDisposed && !/timed out/i.test(message))) {
    return `the render used more than ${MEMORY_LIMIT_MB} MB of memory`;
  }
  if (/timed out/i.test(message)) return OVER_HARD_LIMIT_MESSAGE;
  const name = typeof error?.name === "string" && error.name !== "Error" ? `${error.name}: ` : "";
  return cutText(name + message);
}

async function renderFresh(requestJson) {
  const sandbox = await createSandbox();
  try {
    return (await runInSandbox(sandbox, requestJson)).result;
  } catch (error) {
    throw new Error(describe(error, sandbox.isolate));
  } finally {
    dispose(sandbox);
  }
}

async function renderWarm(projectId, requestJson, retried = false) {
  const record = pickWarmSandbox(projectId);
  try {
    const sandbox = await record.ready;
    // One render at a time per isolate: a render keeps its subject and suspended promises in the isolate's globals.
    const run = record.queue.then(() => runInSandbox(sandbox, requestJson));
    record.queue = run.catch(() => {});
    try {
      const { result, dirty } = await run;
      if (dirty) retire(record);
      return result;
    } catch (error) {
      // A limit leaves the isolate stopped midway (or disposed), and a template may have changed a built-in for
      // good: either way the isolate leaves the pool. A template's own exception is thrown and caught like any
      // other, and the isolate stays usable.
      if (error instanceof DirtySandboxError || error instanceof RenderLimitError || error?.dirty || sandbox.isolate.isDisposed || /timed out/i.test(String(error?.message))) {
        retire(record);
      }
      if (error instanceof DirtySandboxError && !retried) return { retry: true };
      throw new Error(describe(error, sandbox.isolate));
    }
  } finally {
    release(record);
  }
}

async function render({ projectId, request }) {
  const requestJson = JSON.stringify(request);
  if (projectId == null) return renderFresh(requestJson);
  const first = await renderWarm(projectId, requestJson);
  return first?.retry ? renderWarm(projectId, requestJson, true) : first;
}

/** Renders a request and answers it through `reply`, which the request's connection (or IPC channel) provides. */
function serve(message, reply) {
  if (message?.type !== "render") return;
  render(message).then(
    (result) => reply({ id: message.id, ok: true, result }),
    (error) => reply({ id: message.id, ok: false, error: cutText(String(error?.message ?? error)) }),
  );
}

// `--listen <socket>`: one process for every server that connects (a test run's, test/support/email-sandbox.global.ts),
// each connection its own channel of requests and answers (sandbox-frames.mjs). Otherwise its server's IPC channel.
const listenFlag = process.argv.indexOf("--listen");
const listenAt = listenFlag >= 0 ? process.argv[listenFlag + 1] : undefined;
if (listenAt) {
  const { createServer } = await import("node:net");
  const { readFrames, writeFrame } = await import("./sandbox-frames.mjs");
  const server = createServer((socket) => {
    socket.on("error", () => socket.destroy());
    readFrames(socket, (message) => serve(message, (answer) => !socket.destroyed && writeFrame(socket, answer)));
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(listenAt, resolve));
} else {
  process.on("message", (message) => serve(message, (answer) => process.send(answer)));
}
// Started by a server (or a test run's set-up), it ends with it.
process.on("disconnect", () => process.exit(0));
process.send({ type: "ready" });
