#!/usr/bin/env node
// Issue 19: one render of the reference's default email-verification template in its "Default Light" theme, in
// the two sandboxes the issue names, cold and warm (p50). Not part of `npm test`.
//   isolated-vm — Latchkey's renderer as the server calls it (renderEmail: TSX compile cache → sandbox process →
//     V8 isolate → plain text). "first" = the first render after the sandbox process starts (it builds the
//     library bundle); "cold" = a render in a fresh isolate (no projectId: load the libraries, render, dispose);
//     "warm" = renders of one project reusing its isolate.
//   QuickJS (quickjs-emscripten, in this process) — the same library bundle and in-sandbox runtime:
//     "cold" = new runtime and context, load the libraries, render; "warm" = renders in a reused context.
//
//   node --conditions=source bench/email-render.mjs [--warm 200] [--cold 10]
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { installBenchDependencies } from "./harness.mjs";

installBenchDependencies();
register();
const { values: args } = parseArgs({ options: { warm: { type: "string", default: "200" }, cold: { type: "string", default: "10" } } });
const WARM = Number(args.warm);
const COLD = Number(args.cold);

const src = new URL("../packages/server/src/email-rendering/", import.meta.url);
const { renderEmail, stopSandboxProcess } = await import(new URL("index.ts", src).href);
const { compileTsx } = await import(new URL("compile-tsx.ts", src).href);
const { buildSandboxLibrary } = await import(new URL("sandbox-library.mjs", src).href);
const require = createRequire(import.meta.url);
const { DEFAULT_EMAIL_TEMPLATES, DEFAULT_EMAIL_THEMES, DEFAULT_TEMPLATE_IDS, DEFAULT_EMAIL_THEME_ID } = require("@stackframe/stack-shared/dist/helpers/emails");

const input = {
  themeSource: DEFAULT_EMAIL_THEMES[DEFAULT_EMAIL_THEME_ID].tsxSource,
  templateSource: DEFAULT_EMAIL_TEMPLATES[DEFAULT_TEMPLATE_IDS.email_verification].tsxSource,
  variables: { emailVerificationLink: "https://example.test/verify?code=abc123" },
  user: { displayName: "Ada" },
  project: { displayName: "Acme" },
};

const ms = (value) => `${value.toFixed(1)} ms`;
function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
async function timed(task) {
  const start = performance.now();
  await task();
  return performance.now() - start;
}
async function series(count, task) {
  const samples = [];
  for (let i = 0; i < count; i++) samples.push(await timed(task));
  return samples;
}
const summary = (samples) => `p50 ${ms(percentile(samples, 50))}, p90 ${ms(percentile(samples, 90))} (n=${samples.length})`;

// isolated-vm, through the real renderer.
const first = await timed(() => renderEmail({ ...input, projectId: null }));
const ivmCold = await series(COLD, () => renderEmail({ ...input, projectId: null }));
await renderEmail({ ...input, projectId: "bench" });
const ivmWarm = await series(WARM, () => renderEmail({ ...input, projectId: "bench" }));
stopSandboxProcess();

// QuickJS, same bundle and runtime, in this process.
const { getQuickJS, shouldInterruptAfterDeadline } = await import("quickjs-emscripten");
const QuickJS = await getQuickJS();
const library = await buildSandboxLibrary();
const request = JSON.stringify({
  templateCode: await compileTsx(input.templateSource, "template"),
  themeCode: await compileTsx(input.themeSource, "theme"),
  variables: input.variables,
  user: input.user,
  project: input.project,
  unsubscribeLink: null,
  previewMode: false,
});
function quickJsContext() {
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(64 * 1024 * 1024);
  runtime.setMaxStackSize(4 * 1024 * 1024);
  const context = runtime.newContext();
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + 30_000));
  context.unwrapResult(context.evalCode(library, "latchkey-email-library.js")).dispose();
  return { runtime, context };
}
function quickJsRender({ runtime, context }) {
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + 5_000));
  // The runtime's two entry points, as the sandbox process calls them: the render, then its plain text.
  const promise = context.unwrapResult(context.evalCode(`__latchkeySandbox.render(${JSON.stringify(request)})`));
  while (context.unwrapResult(runtime.executePendingJobs()) > 0);
  const state = context.getPromiseState(promise);
  promise.dispose();
  if (state.type !== "fulfilled") throw new Error(`QuickJS render failed: ${JSON.stringify(context.dump(state.error))}`);
  const status = JSON.parse(context.getString(state.value));
  state.value.dispose();
  if (!status.ok) throw new Error(`QuickJS render failed: ${status.error}`);
  const mail = context.unwrapResult(context.evalCode("__latchkeySandbox.plainText()"));
  const html = JSON.parse(context.getString(mail)).html;
  mail.dispose();
  return html;
}
const qjsCold = await series(Math.min(COLD, 5), () => {
  const sandbox = quickJsContext();
  quickJsRender(sandbox);
  sandbox.context.dispose();
  sandbox.runtime.dispose();
});
const warmSandbox = quickJsContext();
quickJsRender(warmSandbox);
const qjsWarm = await series(Math.min(WARM, 50), () => quickJsRender(warmSandbox));

console.log(`email render, default email-verification template in "Default Light" (load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")})`);
console.log(`  isolated-vm first (sandbox process start + library build + isolate): ${ms(first)}`);
console.log(`  isolated-vm cold (fresh isolate per render):  ${summary(ivmCold)}`);
console.log(`  isolated-vm warm (project's isolate reused):  ${summary(ivmWarm)}`);
console.log(`  QuickJS cold (fresh runtime per render):      ${summary(qjsCold)}`);
console.log(`  QuickJS warm (context reused):                ${summary(qjsWarm)}`);
