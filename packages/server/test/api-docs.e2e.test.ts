import { chromium, type Browser } from "playwright-core";
import { chromiumPath } from "../../../scripts/chromium.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.js";

/** The API reference page at /api/v1/docs, rendered by Debian's Chromium. */

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()]);
});

describe("the API reference page", () => {
  it("renders every group of the OpenAPI document, with nothing but fonts asked of other servers", async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.origin === new URL(server.url).origin || url.protocol === "data:" || url.protocol === "blob:") return route.continue();
      foreign.push(url.href);
      return route.abort();
    });
    await page.goto(`${server.url}/api/v1/docs`);
    await expect.poll(() => page.title(), { timeout: 30_000 }).toMatch(/Latchkey API/);
    // The sidebar shows every tag of the document as a group; opening one lists its operations by summary.
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const tags = new Set(Object.values(document.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags)));
    expect(tags.size).toBeGreaterThan(5);
    for (const tag of tags) await page.getByText(tag, { exact: true }).first().waitFor({ timeout: 30_000 });
    await page.getByText("Users", { exact: true }).first().click();
    await page.getByText("Read a user", { exact: true }).first().waitFor({ timeout: 30_000 });
    // Scalar's stylesheet names its Inter font on fonts.scalar.com and Chromium may ask for it before our
    // system-font override applies; refused here (as on a machine without internet), the page falls back to
    // system fonts. Nothing else may come from elsewhere: the script and the document are the server's own.
    expect(foreign.filter((url) => !/^https:\/\/fonts\.scalar\.com\/[a-z-]+\.woff2$/.test(url))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
