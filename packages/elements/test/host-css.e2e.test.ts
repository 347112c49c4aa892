import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browser, createUserWithPassword, demoProject, newEmail, server, useDemoForFile } from "../../../demo/test/support/demo-e2e.js";

/**
 * Issue 16 §1: a host page's CSS cannot break the widgets. Each widget is rendered on a bare page and on pages
 * with the resets real apps ship — Tailwind's preflight, Bootstrap 5's reboot, normalize.css — and a
 * deliberately hostile stylesheet, in Chromium; the screenshots must match the bare page's (same size, and at
 * most a sliver of pixels different: anti-aliasing). LATCHKEY_KEEP_SCREENSHOTS=1 keeps every pair (and its diff)
 * in <tmpdir>/latchkey-host-css for a person to look at; failing pairs are always kept.
 */
useDemoForFile();

const require = createRequire(import.meta.url);
const readCss = (id: string) => readFileSync(require.resolve(id), "utf8");
// Also shown in Storybook ("Host page CSS" stories), which imports the same files.
const HOSTILE = readFileSync(new URL("./support/hostile-page.css", import.meta.url), "utf8");
const RESETS: Record<string, string> = {
  "Tailwind preflight": readCss("tailwindcss/preflight.css"),
  "Bootstrap 5 reboot": readCss("bootstrap/dist/css/bootstrap-reboot.css"),
  "normalize.css": readCss("normalize.css/normalize.css"),
  hostile: HOSTILE,
};
/** Anti-aliasing may move a few pixels at glyph edges; a broken style moves thousands. */
const MAX_DIFFERENT_PIXELS = 0.002;

const PASSWORD = "correct horse battery";
/** Plans and credits for the payment widgets (issue 32): a free default, pro monthly, an add-on of pro. */
const PAYMENTS = {
  "payments.groups.plans": { displayName: "Plans" },
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.offers.free": { displayName: "Free", customerType: "user", groupId: "plans", prices: "include-by-default", includedItems: { credits: { quantity: 10 } } },
  "payments.offers.pro": { displayName: "Pro", customerType: "user", groupId: "plans", prices: { monthly: { USD: "9.99", interval: [1, "month"] } } },
  "payments.offers.boost": { displayName: "Boost", customerType: "user", isAddOnTo: { pro: true }, prices: { once: { USD: "3" } } },
};
/**
 * `shot`: what to photograph, when not the whole stage. An inline widget sits on the host's line, whose height
 * is the host's own typography (Tailwind's line-height 1.5 makes the line a pixel taller around the same widget).
 */
const WIDGETS: Array<{ name: string; markup: string; signedIn: boolean; config?: Record<string, unknown>; shot?: string; ready: (page: Page) => Promise<unknown> }> = [
  { name: "sign-in", markup: "<auth-sign-in no-redirect></auth-sign-in>", signedIn: false, ready: (page) => page.getByRole("button", { name: "Continue with GitHub" }).waitFor() },
  { name: "sign-up", markup: "<auth-sign-up no-redirect></auth-sign-up>", signedIn: false, ready: (page) => page.getByRole("button", { name: "Create account" }).waitFor() },
  {
    name: "account settings",
    // Sessions show times relative to now, which move between two renders: that section is left out.
    markup: "<auth-account-settings hide-sessions></auth-account-settings>",
    signedIn: true,
    // The first tab (profile and emails) is the one shown.
    ready: (page) => page.getByRole("heading", { name: "Email addresses" }).waitFor(),
  },
  { name: "team switcher", markup: "<auth-team-switcher></auth-team-switcher>", signedIn: true, ready: (page) => page.locator("auth-team-switcher button").first().waitFor() },
  // All offers: plans, the add-on's badge and note, and (no Stripe key on the test server) the test-mode note.
  { name: "pricing table", markup: "<auth-pricing-table></auth-pricing-table>", signedIn: true, config: PAYMENTS, ready: (page) => page.getByRole("button", { name: "Choose Pro" }).waitFor() },
  { name: "item balance", markup: '<auth-item-balance item="credits"></auth-item-balance>', signedIn: true, config: PAYMENTS, shot: "auth-item-balance", ready: (page) => page.locator("auth-item-balance [part=quantity]").waitFor() },
];

async function screenshot(project: Awaited<ReturnType<typeof demoProject>>, widget: (typeof WIDGETS)[number], resetCss: string, email: string): Promise<Buffer> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light", deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const url = `${server.url}/isolation-test/${encodeURIComponent(widget.name)}`;
    await page.route(url, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${resetCss}</style>
<script src="/demo/latchkey.iife.js"></script>
<script>window.app = Latchkey.init({ projectId: ${JSON.stringify(project.projectId)}, publishableClientKey: ${JSON.stringify(project.publishableClientKey)}, baseUrl: location.origin });</script>
</head><body style="margin:0;background:#fff"><div id="stage" style="width:520px;padding:16px 0">${widget.markup}</div></body></html>`,
      }),
    );
    await page.goto(url);
    if (widget.signedIn) {
      await page.evaluate(({ email, password }) => (window as any).app.signInWithCredential({ email, password, noRedirect: true }), { email, password: PASSWORD });
    }
    await widget.ready(page);
    await page.waitForLoadState("networkidle");
    // No caret or focus ring differences: nothing is focused.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    return await page.locator(widget.shot ?? "#stage").screenshot({ animations: "disabled", caret: "hide" });
  } finally {
    await context.close();
  }
}

/** Left in the temporary directory for a person to look at: the two renders and what differs. */
function keepForInspection(name: string, bare: PNG, withReset: PNG, diff?: PNG): void {
  const dir = join(tmpdir(), "latchkey-host-css");
  mkdirSync(dir, { recursive: true });
  const base = join(dir, name.replace(/\W+/g, "-"));
  writeFileSync(`${base}-bare.png`, PNG.sync.write(bare));
  writeFileSync(`${base}-reset.png`, PNG.sync.write(withReset));
  if (diff) writeFileSync(`${base}-diff.png`, PNG.sync.write(diff));
}

describe("the widgets under a host page's CSS reset look as on a bare page", () => {
  for (const widget of WIDGETS) {
    it(widget.name, async () => {
      const project = await demoProject({
        "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
        "auth.otp.allowSignIn": true,
        ...widget.config,
      });
      const email = newEmail("iso");
      if (widget.signedIn) await createUserWithPassword(project, email, PASSWORD);
      // The five renders at once, each in a browser context of its own: most of a render is waiting (the network
      // falling idle), which overlaps.
      const [bareShot, ...withResets] = (await Promise.all(["", ...Object.values(RESETS)].map((resetCss) => screenshot(project, widget, resetCss, email)))).map((png) => PNG.sync.read(png));
      const bare = bareShot!;
      const differences: Record<string, number> = {};
      for (const [index, reset] of Object.keys(RESETS).entries()) {
        const withReset = withResets[index]!;
        if (withReset.width !== bare.width || withReset.height !== bare.height) keepForInspection(`${widget.name}-${reset}`, bare, withReset);
        expect([withReset.width, withReset.height], `${widget.name} under ${reset}: size`).toEqual([bare.width, bare.height]);
        const diff = new PNG({ width: bare.width, height: bare.height });
        const different = pixelmatch(bare.data, withReset.data, diff.data, bare.width, bare.height, { threshold: 0.1 });
        differences[reset] = different / (bare.width * bare.height);
        if (differences[reset]! > MAX_DIFFERENT_PIXELS || process.env.LATCHKEY_KEEP_SCREENSHOTS) keepForInspection(`${widget.name}-${reset}`, bare, withReset, diff);
      }
      console.log(`${widget.name}: share of pixels different from the bare page`, differences);
      for (const [reset, share] of Object.entries(differences)) expect(share, `${widget.name} under ${reset}`).toBeLessThanOrEqual(MAX_DIFFERENT_PIXELS);
    });
  }
});

describe("the script-tag bundles the server serves (issue 16 §5)", () => {
  const dist = (file: string) => readFileSync(new URL(`../dist/${file}`, import.meta.url));

  it("at the stable path: compressed as accepted, cached an hour with an ETag, from any origin", async () => {
    const url = `${server.url}/static/v1/latchkey-sign-in.iife.js`;
    const brotli = await fetch(url, { headers: { "accept-encoding": "br, gzip" } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotli.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(brotli.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(brotli.headers.get("access-control-allow-origin")).toBe("*");
    // fetch decodes the body: it is the built bundle.
    expect(Buffer.from(await brotli.arrayBuffer()).equals(dist("latchkey-sign-in.iife.js"))).toBe(true);
    const gzip = await fetch(url, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const etag = gzip.headers.get("etag")!;
    expect((await fetch(url, { headers: { "if-none-match": etag } })).status).toBe(304);
    const locale = await fetch(`${server.url}/static/v1/locales/de.json`);
    expect(Object.keys(await locale.json()).length).toBeGreaterThan(100);
    for (const missing of ["/static/v1/package.json", "/static/v1/locales/..%2Fpackage.json", "/static/v2/latchkey.js"]) {
      expect((await fetch(`${server.url}${missing}`)).status, missing).toBe(404);
    }
  });

  it("at the version's own path, immutable, and outside dev mode too", async () => {
    const { startTestServer } = await import("../../server/test/support/test-server.js");
    const production = await startTestServer({ LATCHKEY_DEV_MODE: "false", LATCHKEY_SERVER_SECRET: "a-production-secret-of-at-least-32-characters" });
    try {
      const version = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version as string;
      const response = await fetch(`${production.url}/static/${version}/latchkey.iife.js`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(Buffer.from(await response.arrayBuffer()).equals(dist("latchkey.iife.js"))).toBe(true);
      // What the bundles load on use, from next to themselves, the same way (a module: CORS for other origins).
      for (const lazy of ["latchkey-account.js", "latchkey-qr.js", "latchkey-webauthn.js"]) {
        const module = await fetch(`${production.url}/static/${version}/${lazy}`, { headers: { "accept-encoding": "br, gzip" } });
        expect(module.status, lazy).toBe(200);
        expect(module.headers.get("content-encoding"), lazy).toBe("br");
        expect(module.headers.get("cache-control"), lazy).toBe("public, max-age=31536000, immutable");
        expect(module.headers.get("access-control-allow-origin"), lazy).toBe("*");
        expect(Buffer.from(await module.arrayBuffer()).equals(dist(lazy)), lazy).toBe(true);
      }
      // The demo is dev-only; the bundles are not.
      expect((await fetch(`${production.url}/demo/latchkey.iife.js`)).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe("on a phone (issue 16 §2)", () => {
  it("no widget widens a 360 px page, even with a long email and team name", async () => {
    const project = await demoProject({
      "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
      "teams.createPersonalTeamOnSignUp": true,
      // The payment widgets' plans and credits (their entries in WIDGETS need them).
      ...PAYMENTS,
    });
    const email = `${"a-very-long-local-part-of-an-address".repeat(2)}-${crypto.randomUUID().slice(0, 8)}@example-organisation.com`;
    await createUserWithPassword(project, email, PASSWORD);
    // Every widget at once, each in a browser context of its own (a render mostly waits for the network to fall idle).
    const widths = await Promise.all(WIDGETS.map(async (widget) => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1 });
      try {
        const page = await context.newPage();
        const url = `${server.url}/phone-test/${encodeURIComponent(widget.name)}`;
        await page.route(url, (route) =>
          route.fulfill({
            contentType: "text/html",
            body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<script src="/demo/latchkey.iife.js"></script>
<script>window.app = Latchkey.init({ projectId: ${JSON.stringify(project.projectId)}, publishableClientKey: ${JSON.stringify(project.publishableClientKey)}, baseUrl: location.origin });</script>
</head><body style="margin:0">${widget.markup.replace("<auth-team-switcher>", "<auth-user-button show-name></auth-user-button><auth-team-switcher>")}</body></html>`,
          }),
        );
        await page.goto(url);
        if (widget.signedIn) await page.evaluate(({ email, password }) => (window as any).app.signInWithCredential({ email, password, noRedirect: true }), { email, password: PASSWORD });
        await widget.ready(page);
        await page.waitForLoadState("networkidle");
        return [widget.name, await page.evaluate(() => document.documentElement.scrollWidth)] as const;
      } finally {
        await context.close();
      }
    }));
    for (const [name, width] of widths) expect(width, `${name} at 360 px`).toBeLessThanOrEqual(360);
  });
});
