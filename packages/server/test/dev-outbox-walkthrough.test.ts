import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";

/**
 * What a developer does on `npm start` without any mail server: sign up with a verification link, open the
 * dev outbox page, follow the link from it, and find the email verified.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function decodeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[entity]!);
}

describe("dev outbox walkthrough", () => {
  it("signs up, takes the verification link from /dev/outbox and verifies the email", async () => {
    expect(server.env.sharedSmtp).toBeNull();
    const project = await createTestProject(server, "Walkthrough");
    const address = `walker-${crypto.randomUUID()}@example.com`;
    const callback = "http://localhost:3000/handler/email-verification";
    const signUp = await api(server.url, "/auth/password/sign-up", {
      method: "POST",
      headers: project.headers("client"),
      body: { email: address, password: "correct horse", verification_callback_url: callback },
    });
    expect(signUp.status).toBe(200);

    const page = await fetch(`${server.url}/dev/outbox?to=${encodeURIComponent(address)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Verify your email at Walkthrough");
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => decodeHtml(m[1]!));
    const link = hrefs.find((href) => href.startsWith(`${callback}?code=`));
    expect(link, html).toBeDefined();

    // What the email-verification page of the app does with the link: send its code to verify.
    const code = new URL(link!).searchParams.get("code")!;
    const verified = await api(server.url, "/contact-channels/verify", { method: "POST", headers: project.headers("client"), body: { code } });
    expect(verified.status).toBe(200);

    const user = await api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": signUp.body.access_token } });
    expect(user.body.primary_email).toBe(address);
    expect(user.body.primary_email_verified).toBe(true);
  });
});
