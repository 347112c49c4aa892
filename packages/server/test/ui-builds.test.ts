import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../../demo/test/support/ensure-built.js";
import { UI_BUILDS, type UiBuild } from "../src/ui-builds.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

/**
 * `npm start` answers /api/v1 while the builds of what it serves from files run in the background
 * (scripts/start.mjs, src/ui-builds.ts): until a build is done its paths say "building…" (503) and never serve
 * the files it is rewriting; after a failed build they say so (500); once built, the files as usual. The states
 * are handed over in `globalThis[UI_BUILDS]`, as scripts/start.mjs does; tests/npm-start.test.ts runs the real
 * `npm start`.
 */
const repository = fileURLToPath(new URL("../../../", import.meta.url));
const BUNDLE = "packages/elements/dist/latchkey.iife.js";
let server: TestServer;
const states = new Map<UiBuild, { state: "building" | "failed"; name: string }>();

beforeAll(async () => {
  await ensureBuilt([BUNDLE]);
  server = await startTestServer();
}, 180_000);
afterEach(() => {
  states.clear();
  delete (globalThis as { [UI_BUILDS]?: unknown })[UI_BUILDS];
});
afterAll(async () => {
  await server?.close();
});

const PAGES: Record<UiBuild, string[]> = {
  elements: ["/demo/", "/demo/handler/sign-up", "/projects/internal/handler/sign-in"],
  demo: ["/demo/react/", "/demo/react/some/route"],
  dashboard: ["/dashboard/", "/dashboard/projects"],
};
const FILES: Record<UiBuild, string[]> = {
  elements: ["/static/v1/latchkey.iife.js", "/static/v1/latchkey-sign-in.iife.js", "/static/v1/locales/de.json", "/demo/latchkey.iife.js", "/demo/locales/de.json"],
  demo: ["/demo/react/assets/index.js"],
  dashboard: ["/dashboard/assets/index.js"],
};

describe("paths served from a build that npm start is still running", () => {
  it("answer a page that reloads itself, or a plain 503 for files, while the API answers", async () => {
    (globalThis as { [UI_BUILDS]?: unknown })[UI_BUILDS] = states;
    for (const build of ["elements", "demo", "dashboard"] as const) states.set(build, { state: "building", name: `the ${build} build` });
    expect((await fetch(`${server.url}/api/v1`)).status).toBe(200);
    for (const [build, paths] of Object.entries(PAGES)) {
      for (const path of paths) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.status, path).toBe(503);
        expect(response.headers.get("retry-after")).toBe("2");
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(response.headers.get("x-frame-options")).toBe("DENY");
        const page = await response.text();
        expect(page).toContain(`Building the ${build} build (npm start)… This page reloads by itself when it is ready.`);
        expect(page).toContain('<meta http-equiv="refresh" content="2">');
      }
    }
    for (const [build, paths] of Object.entries(FILES)) {
      for (const path of paths) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.status, path).toBe(503);
        expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
        expect(await response.text()).toBe(`Building the ${build} build (npm start)… Reload when it is done.\n`);
      }
    }
  });

  it("say that the build failed, without reloading", async () => {
    (globalThis as { [UI_BUILDS]?: unknown })[UI_BUILDS] = states;
    states.set("dashboard", { state: "failed", name: "the admin dashboard (packages/dashboard/dist)" });
    const page = await fetch(`${server.url}/dashboard/`);
    expect(page.status).toBe(500);
    expect(page.headers.get("retry-after")).toBeNull();
    const html = await page.text();
    expect(html).toContain("The build of the admin dashboard (packages/dashboard/dist) failed: the terminal running npm start says why.");
    expect(html).not.toContain("refresh");
    const asset = await fetch(`${server.url}/dashboard/assets/index.js`);
    expect(asset.status).toBe(500);
    // Only that build's paths: the others are served.
    expect((await fetch(`${server.url}/static/v1/latchkey.iife.js`)).status).toBe(200);
  });

  it("serve the new build once it is done, never what was there while it ran", async () => {
    (globalThis as { [UI_BUILDS]?: unknown })[UI_BUILDS] = states;
    states.set("elements", { state: "building", name: "the web components bundle (packages/elements/dist)" });
    for (const version of ["v1", "0.1.0"]) expect((await fetch(`${server.url}/static/${version}/latchkey.iife.js`)).status).toBe(503);
    states.delete("elements"); // start.mjs: the build succeeded
    const response = await fetch(`${server.url}/static/v1/latchkey.iife.js`, { headers: { "accept-encoding": "identity" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(await readFile(`${repository}${BUNDLE}`, "utf8"));
    expect((await fetch(`${server.url}/demo/`)).status).toBe(200);
  });
});
