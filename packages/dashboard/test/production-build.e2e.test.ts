import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sharedChromium } from "../../../demo/test/support/shared-chromium.js";

/**
 * The dashboard's build is a production build whatever NODE_ENV the shell that runs it has (issue 31): built
 * with NODE_ENV=development, as in a developer's shell that exports it (the build that shipped "Lit is in dev
 * mode" on every page), the page Chromium opens logs neither Lit's nor React's development notice. The build
 * goes to a directory of its own (the other dashboard tests use packages/dashboard/dist) and is served as
 * the server would, under /dashboard/, with the config the server writes in.
 */
const repository = fileURLToPath(new URL("../../../", import.meta.url));
const ORIGIN = "http://dashboard.test";
const CONFIG = `<script type="application/json" id="latchkey-dashboard-config">${JSON.stringify({ baseUrl: ORIGIN, projectId: "internal", publishableClientKey: "pck" })}</script>`;
const TYPES: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".html": "text/html" };

describe("the dashboard's production build", () => {
  it("runs Lit and React in production mode when built from a shell with NODE_ENV=development", { timeout: 300_000 }, async () => {
    const outDir = await mkdtemp(join(tmpdir(), "latchkey-dashboard-build-"));
    try {
      await viteBuild(outDir, { NODE_ENV: "development" });
      const page = await (await sharedChromium()).newPage();
      try {
        const messages: string[] = [];
        page.on("console", (message) => messages.push(message.text()));
        await page.route("**/*", async (route) => {
          const url = new URL(route.request().url());
          // The API is not there: the sign-in widget says it cannot reach it, which is not what this test checks.
          if (url.origin !== ORIGIN || url.pathname.startsWith("/api/")) return route.abort();
          if (url.pathname.startsWith("/dashboard/assets/")) {
            const file = join(outDir, "assets", url.pathname.slice("/dashboard/assets/".length));
            return route.fulfill({ body: await readFile(file), contentType: TYPES[extname(file)] ?? "application/octet-stream" });
          }
          const html = (await readFile(join(outDir, "index.html"), "utf8")).replace("<!-- latchkey-dashboard-config -->", CONFIG);
          return route.fulfill({ body: html, contentType: "text/html" });
        });
        await page.goto(`${ORIGIN}/dashboard/sign-in`);
        // The React app rendered and the sign-in element (Lit) is defined: both libraries' code has run.
        await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor({ timeout: 60_000 });
        await page.waitForFunction(() => customElements.get("auth-sign-in") !== undefined, undefined, { timeout: 60_000 });
        expect(messages.filter((text) => /Lit is in dev mode|React DevTools/.test(text))).toEqual([]);
      } finally {
        await page.close();
      }
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});

/** The dashboard's own build command (scripts/builds.mjs) with another output directory and NODE_ENV. */
function viteBuild(outDir: string, env: Record<string, string>): Promise<void> {
  const args = ["node_modules/vite/bin/vite.js", "build", "--config", "packages/dashboard/vite.config.ts", "--outDir", outDir, "--emptyOutDir", "--sourcemap", "false"];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repository, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`the dashboard build failed (${code}):\n${output}`))));
  });
}
