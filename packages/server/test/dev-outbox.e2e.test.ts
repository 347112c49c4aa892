import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendEmail } from "../src/email/send.js";
import { createLogger } from "../src/log.js";
import { getProject } from "../src/services/projects.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestServer } from "./support/test-server.js";
import { releaseChromium, sharedChromium } from "../../../demo/test/support/shared-chromium.js";

/** The dev outbox (/dev/outbox) in Debian's Chromium: each mail as its recipient would see it, and as text. */


let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([
    reachablePublicUrl().then((vars) => startTestServer({ ...vars, LATCHKEY_DEV_MODE: "true" })),
    sharedChromium(),
  ]);
});
afterAll(async () => {
  await Promise.all([releaseChromium(browser), server?.close()]);
});

describe("the dev outbox in a browser", () => {
  it("shows each mail's HTML in a sandboxed frame whose links open in a new tab, and its text", async () => {
    const project = await getProject(server.db, (await createTestProject(server, "Framed Mail")).projectId);
    const deps = { db: server.db, env: server.env, log: createLogger("silent") };
    const to = `reader-${crypto.randomUUID().slice(0, 8)}@example.com`;
    // A link the browser can follow: the server's own health check, standing in for an app's callback page.
    const link = `${server.env.publicUrl}/health?code=Q1W2E3`;
    await sendEmail(deps, project, { to, template: "magic_link", variables: { otp: "Q1W2E3", magicLink: link } });
    // Mail an admin wrote may hold anything, scripts included: none may run, in the frame or in the outbox.
    await sendEmail(deps, project, {
      to,
      subject: "Written by hand",
      html: `<h1>Hello from the mail</h1><p style="color:rgb(200, 0, 0)">Red words</p><script>document.body.dataset.ran = "yes"; parent.document.title = "scripted";</script><img src="x" onerror="document.body.dataset.ran = 'yes'">`,
    });

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${server.url}/dev/outbox?to=${encodeURIComponent(to)}`);

    // The template's mail, rendered: its button is a link in the frame, not markup shown as text.
    const signIn = page.getByRole("article").filter({ has: page.getByRole("heading", { name: /Sign in to Framed Mail/ }) });
    const frameElement = signIn.locator("iframe");
    expect(await frameElement.getAttribute("title")).toMatch(/^HTML of “Sign in to Framed Mail/);
    // Sandboxed: no scripts, no same-origin access; only popups (its links), which leave the sandbox.
    expect((await frameElement.getAttribute("sandbox"))!.split(/\s+/).sort()).toEqual(["allow-popups", "allow-popups-to-escape-sandbox"]);
    const frame = signIn.frameLocator("iframe");
    await frame.getByText("Q1W2E3").first().waitFor();
    const mailLink = frame.locator(`a[href="${link}"]`).first();
    expect((await mailLink.boundingBox())!.height).toBeGreaterThan(0);
    const [opened] = await Promise.all([context.waitForEvent("page"), mailLink.click()]);
    await opened.waitForURL(link);
    expect(page.url()).toContain("/dev/outbox");
    // Its text part is there too, one click away.
    await signIn.getByText("Text", { exact: true }).click();
    await signIn.locator("pre").getByText(link).waitFor();

    // The handwritten mail: its HTML styled as written, and its script never ran.
    const written = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Written by hand" }) });
    const writtenFrame = written.frameLocator("iframe");
    await writtenFrame.getByRole("heading", { name: "Hello from the mail" }).waitFor();
    expect(await writtenFrame.getByText("Red words").evaluate((p) => getComputedStyle(p).color)).toBe("rgb(200, 0, 0)");
    expect(await writtenFrame.locator("body").getAttribute("data-ran")).toBeNull();
    expect(await page.title()).toBe("Dev outbox · Latchkey");
    expect(errors).toEqual([]);
    await context.close();
  });
});
