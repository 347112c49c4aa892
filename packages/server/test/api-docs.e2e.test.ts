import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.js";
import { releaseChromium, sharedChromium } from "../../../demo/test/support/shared-chromium.js";

/** The API reference page at /api/v1/docs, rendered by Debian's Chromium. */


let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), sharedChromium()]);
});
afterAll(async () => {
  await Promise.all([releaseChromium(browser), server?.close()]);
});

describe("the API reference page", () => {
  it("renders every group of the OpenAPI document from the server alone, with nothing that needs another service", async () => {
    // A fresh context: nothing cached, as on a first visit.
    const context = await browser.newContext();
    const page = await context.newPage();
    const foreign: string[] = [];
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.origin === new URL(server.url).origin || url.protocol === "data:" || url.protocol === "blob:") return route.continue();
      foreign.push(url.href);
      return route.abort();
    });
    const started = performance.now();
    await page.goto(`${server.url}/api/v1/docs`);
    await page.getByRole("heading", { name: "Latchkey API", level: 1 }).waitFor({ timeout: 30_000 });
    // Measured, not asserted (it depends on the machine's load): the time to the rendered reference.
    console.log(`API reference: first render after ${Math.round(performance.now() - started)} ms`);
    // The sidebar shows every tag of the document as a group; opening one lists its operations by summary.
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const tags = new Set(Object.values(document.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags)));
    expect(tags.size).toBeGreaterThan(5);
    for (const tag of tags) await page.getByText(tag, { exact: true }).first().waitFor({ timeout: 30_000 });
    await page.getByText("Users", { exact: true }).first().click();
    await page.getByText("Read a user", { exact: true }).first().waitFor({ timeout: 30_000 });
    // One reference (the bundle once mounted a second, unconfigured one beside ours), and no button that
    // sends the document to Scalar's AI or MCP services.
    expect(await page.getByRole("heading", { name: "Latchkey API", level: 1 }).count()).toBe(1);
    expect(await page.getByRole("button", { name: /ask ai/i }).count()).toBe(0);
    expect(await page.getByText(/ask ai|generate mcp|connect mcp/i).count()).toBe(0);
    // Nothing from elsewhere, fonts included: the script and the document are the server's own.
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sends the script and the document gzip-compressed to a browser that takes it", async () => {
    for (const path of ["/api/v1/docs/scalar.js", "/api/v1/openapi.json"]) {
      const plain = await fetch(server.url + path, { headers: { "accept-encoding": "identity" } });
      const body = await plain.arrayBuffer();
      expect(plain.headers.get("content-encoding")).toBeNull();
      const compressed = await fetch(server.url + path, { headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(compressed.headers.get("content-encoding")).toBe("gzip");
      expect(compressed.headers.get("vary")).toContain("accept-encoding");
      // fetch inflates it: the same bytes.
      expect(Buffer.from(await compressed.arrayBuffer()).equals(Buffer.from(body))).toBe(true);
    }
  });
});
