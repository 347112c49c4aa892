import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../packages/server/test/support/test-server.js";
import { ensureDemoBuilt } from "./support/demo-build.js";

/**
 * How the server hands out the demo (packages/server/src/routes/demo-pages.ts), seen over HTTP: the
 * pages in dev mode, nothing at all in production, and never a file outside the demo's folders.
 */
let dev: TestServer;
let production: TestServer;

beforeAll(async () => {
  await ensureDemoBuilt();
  [dev, production] = await Promise.all([
    startTestServer({ LATCHKEY_DEV_MODE: "true" }),
    startTestServer({ LATCHKEY_DEV_MODE: "false", LATCHKEY_SERVER_SECRET: "a-production-secret-of-more-than-32-characters" }),
  ]);
});
afterAll(async () => {
  await Promise.all([dev?.close(), production?.close()]);
});

describe("demo pages", () => {
  it("serves the script-tag page at /demo/ and sends /demo there", async () => {
    const page = await fetch(`${dev.url}/demo/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain('<script src="/demo/latchkey.iife.js"></script>');

    const bare = await fetch(`${dev.url}/demo`, { redirect: "manual" });
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("/demo/");
  });

  it("serves the built bundle, its message catalogues and the React app", async () => {
    const bundle = await fetch(`${dev.url}/demo/latchkey.iife.js`);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await bundle.text()).toContain("auth-sign-in");

    const german = await fetch(`${dev.url}/demo/locales/de.json`);
    expect(german.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Object.keys((await german.json()) as object).length).toBeGreaterThan(10);

    // Any path of the React app gets its page, which loads the built script.
    const react = await fetch(`${dev.url}/demo/react/handler/sign-in`);
    const html = await react.text();
    const script = html.match(/src="(\/demo\/react\/assets\/[^"]+\.js)"/)?.[1];
    expect(script, html).toBeTruthy();
    expect((await fetch(`${dev.url}${script}`)).status).toBe(200);
  });

  it("answers every handler path with the handler page", async () => {
    for (const path of ["/demo/handler", "/demo/handler/sign-in", "/demo/handler/email-verification?code=abc"]) {
      const response = await fetch(`${dev.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain("<auth-handler></auth-handler>");
    }
  });

  it("serves nothing outside the demo's files", async () => {
    for (const path of ["/demo/..%2Fpackage.json", "/demo/react/assets/..%2F..%2F..%2Fpackage.json", "/demo/test", "/demo/.gitignore", "/demo/tsconfig.json"]) {
      const response = await fetch(`${dev.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('"workspaces"');
    }
  });

  it("does not exist in production", async () => {
    for (const path of ["/demo/", "/demo", "/demo/handler/sign-in", "/demo/latchkey.iife.js", "/demo/react/"]) {
      const response = await fetch(`${production.url}${path}`, { redirect: "manual" });
      expect(response.status, path).toBe(404);
    }
  });
});
