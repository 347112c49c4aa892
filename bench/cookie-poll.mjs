// `node bench/cookie-poll.mjs [--rounds N] [--seconds S]`: what a page pays in Chromium CPU while a cookie token store
// listens (the widgets' default store, which looks at the cookies every 100 ms for a session changed in another tab).
// The store is packages/core's, bundled from its sources with esbuild; "the previous poll" is what each look did
// before this round (one write of `stack-is-https` and three parses of `document.cookie`), inline. Each round opens
// one fresh context per variant on a small http://127.0.0.1 page with a session's cookies, lets it run S seconds
// (default 15) and reads the CPU time (user + system, /proc) of every Chromium process. Prints each round and the
// medians, in milliseconds of CPU per second of page life, beside an idle page.
import { createServer } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { CHROMIUM_ARGS } from "../demo/test/support/chromium-args.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const rounds = option("--rounds", 3);
const seconds = option("--seconds", 15);
const PROJECT_ID = "5c1f7a52-7f0e-4a43-9a9b-7e4d1f2d3c4b";

const store = await build({
  stdin: {
    contents: `import { cookieTokenStore } from "./packages/core/src/token-stores/cookie-token-store.ts"; window.startStore = (projectId) => cookieTokenStore({ projectId }).subscribe(() => {});`,
    resolveDir: new URL("..", import.meta.url).pathname,
    loader: "ts",
  },
  bundle: true,
  format: "iife",
  write: false,
});
const storeScript = store.outputFiles[0].text;

const previousPoll = `(() => {
  const parse = () => new Map(document.cookie.split(";").map((pair) => pair.trim().split("=")));
  const look = () => {
    document.cookie = "stack-is-https=true; Max-Age=31536000; Path=/; SameSite=Lax; Secure";
    return [parse().get("stack-refresh-${PROJECT_ID}"), parse().get("stack-refresh"), parse().get("stack-access")];
  };
  const poll = () => { look(); setTimeout(poll, 100); };
  poll();
})();`;

const variants = {
  "idle page": "",
  "the previous poll": previousPoll,
  "cookie token store": `${storeScript}\nstartStore(${JSON.stringify(PROJECT_ID)});`,
};

const server = createServer((request, response) => {
  response.setHeader("content-type", "text/html");
  response.end("<!doctype html><title>Cookie poll</title><main><h1>Signed in</h1></main>");
}).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

/** CPU seconds of every Chromium process alive now (exited renderers count in their parent's children's time). */
function chromiumCpu() {
  let ticks = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("chromium")) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
const results = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = 1; round <= rounds; round++) {
  for (const [name, script] of round % 2 ? Object.entries(variants) : Object.entries(variants).reverse()) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.evaluate((projectId) => {
      document.cookie = `stack-refresh-${projectId}=refresh-token; Path=/`;
      document.cookie = `stack-access=${encodeURIComponent(JSON.stringify(["refresh-token", "x".repeat(600)]))}; Path=/`;
    }, PROJECT_ID);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = chromiumCpu();
    if (script) await page.addScriptTag({ content: script });
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const perSecond = ((chromiumCpu() - before) / seconds) * 1000;
    results[name].push(perSecond);
    console.log(`round ${round}\t${name.padEnd(20)}\t${perSecond.toFixed(1)} ms of Chromium CPU per second`);
    await context.close();
  }
}
await browser.close();
server.close();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
console.log(`\nmedian over ${rounds} rounds of ${seconds} s:`);
for (const [name, list] of Object.entries(results)) console.log(`  ${name.padEnd(20)} ${median(list).toFixed(1)} ms of Chromium CPU per second of page life`);
