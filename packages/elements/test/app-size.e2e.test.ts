import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../../demo/test/support/ensure-built.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "../../server/test/support/test-server.js";
import { releaseChromium, sharedChromium } from "../../../demo/test/support/shared-chromium.js";

/**
 * What the packages add to a customer's Vite app (scripts/app-size.mjs): tiny apps built for production against
 * the BUILT packages (`npm run build:packages`), measured, and the sign-in-only ones opened in Chromium against a
 * real server. The builds are one step of ensure-built.ts, redone only when a package's source changed.
 */

const repository = fileURLToPath(new URL("../../../", import.meta.url));
const OUT = "node_modules/.cache/latchkey-app-size";
const PACKAGES = ["protocol", "core", "elements", "react"];
/**
 * The packages' dist/, unless it is newer than their sources (the Next.js fixture's build makes it too): a build
 * that is not needed would rewrite files a `next dev` of another test file may be reading.
 */
const PACKAGES_BUILD = {
  name: "the packages (packages/*/dist)",
  sources: [...PACKAGES.flatMap((name) => [`packages/${name}/src`, `packages/${name}/package.json`]), "package-lock.json"],
  outputs: ["packages/protocol/dist/errors/index.js", ...PACKAGES.slice(1).map((name) => `packages/${name}/dist/index.js`)],
  command: ["npm", "run", "--silent", "build:packages"],
};
const APP_SIZE_BUILD = {
  name: "the app-size apps (node_modules/.cache/latchkey-app-size)",
  sources: [...PACKAGES_BUILD.sources, "packages/elements/scripts/app-size.mjs"],
  outputs: [`${OUT}/sizes.json`],
  // Without vitest's NODE_ENV=test (ensure-built.ts drops it), so Vite builds React's production code.
  command: ["sh", "-c", `rm -rf ${OUT} && node packages/elements/scripts/app-size.mjs --json --out ${OUT} > ${OUT}.json && mv ${OUT}.json ${OUT}/sizes.json`],
};

interface AppSize {
  initial: number;
  onUse: number;
  entry: string;
  dir: string;
  error?: string;
}

let sizes: Record<string, AppSize>;
let server: TestServer;
let project: TestProject;
let browser: Browser;

beforeAll(async () => {
  await ensureBuilt([...PACKAGES_BUILD.outputs, ...APP_SIZE_BUILD.outputs], [PACKAGES_BUILD, APP_SIZE_BUILD]);
  await ensureBuilt(["packages/elements/dist/latchkey.iife.js"]);
  sizes = JSON.parse(readFileSync(join(repository, OUT, "sizes.json"), "utf8"));
  [server, browser] = await Promise.all([startTestServer(), sharedChromium()]);
  project = await createTestProject(server, "Vite app");
}, 600_000);

afterAll(async () => {
  await Promise.all([releaseChromium(browser), server?.close()]);
});

const app = (name: string): AppSize => {
  const size = sizes[name];
  if (!size || size.error) throw new Error(`${name} did not build: ${size?.error}`);
  return size;
};
const allElementsBundle = () => gzipSync(readFileSync(join(repository, "packages/elements/dist/latchkey.iife.js")), { level: 9 }).length;
/** A server on a free port of 127.0.0.1 answering each path with `answer(path)`, or 404. */
async function serve(answer: (path: string) => { type: string; body: string | Buffer } | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((request, response) => {
    const found = answer(new URL(request.url!, "http://localhost").pathname);
    if (found) response.writeHead(200, { "content-type": found.type }).end(found.body);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => {
    http.close(() => resolve());
    http.closeAllConnections();
  });
  return { url: `http://localhost:${port}`, close };
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe("a customer's Vite app that shows only <auth-sign-in>", () => {
  it("loads under 75 % of what the one importing the main entry loads, with @latchkey/elements/sign-in (and less than the all-elements bundle)", async () => {
    const signIn = app("elements: @latchkey/elements/sign-in").initial;
    const everything = app("elements: the main entry").initial;
    expect(signIn, `${kb(signIn)} against ${kb(everything)}`).toBeLessThan(everything * 0.75);
    expect(signIn).toBeLessThan(allElementsBundle());
  });

  it("with AuthProvider and AuthSignIn of @latchkey/react, has under 75 % of the Latchkey code of one that keeps every export (tree-shaken: no other element)", async () => {
    const react = app("react: React alone").initial;
    const signIn = app("react: AuthProvider and AuthSignIn").initial - react;
    const everything = app("react: every export of @latchkey/react").initial - react;
    expect(signIn, `${kb(signIn)} against ${kb(everything)}`).toBeLessThan(everything * 0.75);
    expect(signIn).toBeLessThan(allElementsBundle());
  });

  for (const name of ["elements: @latchkey/elements/sign-in", "react: AuthProvider and AuthSignIn"]) {
    it(`shows the sign-in form in Chromium, built for production (${name}), and defines no element it does not use`, async () => {
      const { dir, entry } = app(name);
      // The app's own origin on localhost (a new project trusts it), answering with the build's files.
      const origin = await serve((path) =>
        path === "/"
          ? { type: "text/html", body: `<!doctype html><html lang="en"><body><script>globalThis.latchkeyOptions = ${JSON.stringify({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: server.url })};</script><script type="module" src="/${entry}"></script></body></html>` }
          : existsSync(join(repository, dir, path))
            ? { type: "text/javascript", body: readFileSync(join(repository, dir, path)) }
            : undefined,
      );
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        // What the page said, to tell why when the form does not show; its uncaught errors fail the test.
        const errors: string[] = [];
        const log: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        page.on("console", (message) => log.push(`${message.type()}: ${message.text()}`));
        await page.goto(`${origin.url}/`);
        await page
          .locator("auth-sign-in input[name=email]")
          .waitFor({ timeout: 30_000 })
          .catch(async (error: unknown) => {
            throw new Error(`${String(error)}\n${[...errors, ...log].join("\n")}\n${await page.content()}`);
          });
        const defined = await page.evaluate(() => ["auth-app", "auth-sign-in", "auth-sign-up", "auth-user-button", "auth-account-settings", "auth-handler"].filter((tag) => customElements.get(tag)));
        expect(defined).toEqual(["auth-app", "auth-sign-in"]);
        expect(errors).toEqual([]);
      } finally {
        await Promise.all([context.close(), origin.close()]);
      }
    });
  }
});
