import { describe, expect, it } from "vitest";
import {
  configure,
  email,
  emailProject,
  expectNoMailTo,
  post,
  signUpWithPassword,
  smtp,
  useServerAndSmtpForFile,
} from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";

useServerAndSmtpForFile();

/**
 * The bypass list through every endpoint that mails a link built on a `callback_url`: each is refused
 * with REDIRECT_URL_NOT_WHITELISTED (or SCHEMA_ERROR when it is not even a URL, as the protocol's URL
 * schema has it) and no mail leaves. The project trusts https://app.example.com and https://*.apps.example.com,
 * and not localhost until it says so.
 */

const BYPASSES = [
  "https://evil.com@app.example.com/handler",
  "https://app.example.com@evil.com/handler",
  "https://app.example.com%2F@evil.com/",
  "//evil.com/handler",
  "//app.example.com/handler",
  "https:evil.com",
  "https:app.example.com/handler",
  "javascript:alert(document.domain)",
  "javascript://app.example.com/%0aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "https://app.example.com\\@evil.com/",
  "https://app.example.com\\.evil.com/",
  "https://app.example.com.evil.com/handler",
  "https://evilapp.example.com/handler",
  "https://app.example.com./handler",
  "https://\u0430pp.example.com/handler", // Cyrillic а
  "https://app.example.com:8443/handler",
  "http://app.example.com/handler",
  "https://a.b.apps.example.com/handler",
  "https://apps.example.com/handler",
  "https://x.apps.example.com.evil.com/",
  "http://localhost:3000/handler",
  "http://127.0.0.1/handler",
  "/handler/magic-link-callback",
];

const isUrl = (value: string) => {
  try {
    new URL(value);
    return !value.includes(" ");
  } catch {
    return false;
  }
};

type Sender = { name: string; send: (project: TestProject, address: string, callbackUrl: string) => ReturnType<typeof post> };

const SENDERS: Sender[] = [
  { name: "send-reset-code", send: (project, address, url) => post(project, "/auth/password/send-reset-code", { email: address, callback_url: url }) },
  { name: "send-sign-in-code", send: (project, address, url) => post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: url }) },
  {
    name: "send-sign-in-invitation",
    send: (project, address, url) => post(project, "/internal/send-sign-in-invitation", { email: address, callback_url: url }, { access: "admin" }),
  },
];

async function allowListProject(): Promise<TestProject> {
  // New projects allow localhost (as the protocol's do); these start without it.
  return emailProject({ "domains.allowLocalhost": false, "domains.trustedDomains.apps": { baseUrl: "https://*.apps.example.com", handlerPath: "/handler" } });
}

describe.each(SENDERS)("callback_url of $name", ({ name, send }) => {
  it("refuses every URL of the bypass list and sends nothing", async () => {
    const project = await allowListProject();
    const addresses: string[] = [];
    for (const url of BYPASSES) {
      const address = email();
      addresses.push(address);
      // A password user, so that the reset flow would really mail if the URL got through.
      if (name === "send-reset-code") await signUpWithPassword(project, address, "a-password-1");
      const response = await send(project, address, url);
      expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.code, url).toBe(isUrl(url) ? "REDIRECT_URL_NOT_WHITELISTED" : "SCHEMA_ERROR");
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.messages.filter((m) => addresses.some((a) => m.to.includes(a)))).toEqual([]);
  });

  it("accepts the trusted domain and its wildcard, and localhost once allowed", async () => {
    const project = await allowListProject();
    const accepted = ["https://app.example.com/handler/x?after=1", "https://team-1.apps.example.com/handler"];
    for (const url of accepted) {
      const address = email();
      if (name === "send-reset-code") await signUpWithPassword(project, address, "a-password-1");
      const response = await send(project, address, url);
      expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(200);
      const message = await smtp.nextMessage(address);
      expect(message.text).toContain(url);
    }
    await configure(project, { "domains.allowLocalhost": true });
    const address = email();
    if (name === "send-reset-code") await signUpWithPassword(project, address, "a-password-1");
    expect((await send(project, address, "http://localhost:3000/handler")).status).toBe(200);
    await smtp.nextMessage(address);
    const evil = email();
    expect((await send(project, evil, "http://localhost.evil.com/handler")).body.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    await expectNoMailTo(evil, 0);
  });
});
