import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../src/env.js";
import { api, type ApiResponse } from "./support/api.js";
import * as emailFlow from "./support/email-flow-fixture.js";
import { killServerProcesses, runServerProcess } from "./support/server-process.js";
import { createTestProject, PRODUCTION, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { expectRefused, failTimes, untilRefusedFor } from "./support/throttle.js";

// Issue 29 §1: an outside test suite signing up hundreds of users from 127.0.0.1 against a dev-mode server stopped at
// a 429 after 30 mail sends. In dev mode loopback clients are not counted per client address, and
// LATCHKEY_RATE_LIMIT_EXEMPT names clients never counted per address in any mode; per-account limits still apply.
const { email, emailProject, MAGIC_LINK_CALLBACK, post } = emailFlow;
emailFlow.useServerAndSmtpForFile(); // dev mode, as `npm start`

const PASSWORD = "correct horse battery staple";
// Past every per-address limit with room to spare: 30 mail sends and 50 wrong passwords per client address
// (services/auth-throttle.ts). Each send and sign-up renders a mail, one at a time per project, so 200 of each
// (as issue 29's suite made) cost ~30 s more and proved nothing more: past its limit an address is refused at once.
const SENDS = 75;

/** Runs `count` calls, `parallel` at a time, and returns every answer. */
async function inBatches(count: number, parallel: number, call: (i: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  for (let start = 0; start < count; start += parallel) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, (_, k) => call(start + k)))));
  }
  return answers;
}

const statuses = (answers: ApiResponse[]) => [...new Set(answers.map((answer) => answer.status))];

describe("in dev mode, a loopback client", () => {
  it(`sends ${SENDS} sign-in codes and signs up ${SENDS} users without a 429`, async () => {
    const project = await emailProject();
    const sends = await inBatches(SENDS, 10, () => post(project, "/auth/otp/send-sign-in-code", { email: email(), callback_url: MAGIC_LINK_CALLBACK }));
    expect(statuses(sends), sends.find((s) => s.status !== 200)?.text).toEqual([200]);
    const signUps = await inBatches(SENDS, 8, () => post(project, "/auth/password/sign-up", { email: email(), password: PASSWORD }));
    expect(statuses(signUps), signUps.find((s) => s.status !== 200)?.text).toEqual([200]);
    // And 60 wrong passwords across accounts (over the per-address limit of 50) are each answered as such.
    await failTimes(60, "EMAIL_PASSWORD_MISMATCH", () => post(project, "/auth/password/sign-in", { email: email(), password: "wrong" }));
  }, 180_000);

  it("still meets the per-account limits: 5 wrong passwords, 5 codes per address and purpose", async () => {
    const project = await emailProject();
    const address = email();
    expect((await post(project, "/auth/password/sign-up", { email: address, password: PASSWORD })).status).toBe(200);
    await failTimes(5, "EMAIL_PASSWORD_MISMATCH", (i) => post(project, "/auth/password/sign-in", { email: address, password: `wrong ${i}` }));
    expectRefused(await post(project, "/auth/password/sign-in", { email: address, password: PASSWORD }), 1);

    const codeAddress = email();
    for (let i = 0; i < 5; i++) {
      expect((await post(project, "/auth/otp/send-sign-in-code", { email: codeAddress, callback_url: MAGIC_LINK_CALLBACK })).status).toBe(200);
    }
    const sixth = await post(project, "/auth/otp/send-sign-in-code", { email: codeAddress, callback_url: MAGIC_LINK_CALLBACK });
    expect(sixth.status, sixth.text).toBe(429);
    expect(sixth.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("in production mode", () => {
  // Behind the deployment's proxy (127.0.0.1), so each request names its client in X-Forwarded-For.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...PRODUCTION, LATCHKEY_TRUSTED_PROXIES: "127.0.0.1", LATCHKEY_RATE_LIMIT_EXEMPT: "10.0.0.0/8, 2001:db8::/32" });
  });
  afterAll(() => server?.close());

  const send = (project: TestProject, client: string) =>
    api(server.url, "/auth/otp/send-sign-in-code", {
      method: "POST",
      headers: { ...project.headers("client"), "x-forwarded-for": client },
      body: { email: email(), callback_url: MAGIC_LINK_CALLBACK },
    });
  /** A project of this server's, mailing to the file's SMTP capture. */
  const productionProject = async () => {
    const own = await createTestProject(server, "Production mail");
    const configured = await api(server.url, "/internal/config/override", {
      method: "PATCH",
      headers: own.headers("admin"),
      body: {
        config_override_string: JSON.stringify({
          "emails.server": { isShared: false, host: emailFlow.smtp.host, port: emailFlow.smtp.port, username: "mailer", password: "secret", senderName: "Production mail", senderEmail: "noreply@flows.example" },
          "auth.otp.allowSignIn": true,
          "domains.trustedDomains.app": { baseUrl: emailFlow.TRUSTED_ORIGIN, handlerPath: "/handler" },
        }),
      },
    });
    expect(configured.status, configured.text).toBe(200);
    return own;
  };

  it("refuses a client address after its 30 sends, as before", async () => {
    const project = await productionProject();
    const answers = await inBatches(30, 5, () => send(project, "203.0.113.9"));
    expect(statuses(answers)).toEqual([200]);
    // The 30th send started a one-second block; under load the next may come after it, so send until refused.
    await untilRefusedFor(1, () => send(project, "203.0.113.9"));
  });

  it("never refuses a client in LATCHKEY_RATE_LIMIT_EXEMPT, IPv4 or IPv6", async () => {
    const project = await productionProject();
    for (const client of ["10.1.2.3", "2001:db8::7"]) {
      const answers = await inBatches(45, 5, () => send(project, client));
      expect(statuses(answers), answers.find((a) => a.status !== 200)?.text).toEqual([200]);
    }
    // Loopback is not exempt outside dev mode: the proxy's own address counts like any client.
    const direct = await inBatches(30, 5, () => api(server.url, "/auth/otp/send-sign-in-code", { method: "POST", headers: project.headers("client"), body: { email: email(), callback_url: MAGIC_LINK_CALLBACK } }));
    expect(statuses(direct)).toEqual([200]);
    await untilRefusedFor(1, () => api(server.url, "/auth/otp/send-sign-in-code", { method: "POST", headers: project.headers("client"), body: { email: email(), callback_url: MAGIC_LINK_CALLBACK } }));
  });
});

describe("LATCHKEY_RATE_LIMIT_EXEMPT", () => {
  afterAll(() => killServerProcesses());

  it("takes addresses and CIDR ranges; loopback is exempt in dev mode only", () => {
    const dev = readEnv({ LATCHKEY_RATE_LIMIT_EXEMPT: "192.0.2.10, 10.0.0.0/8,2001:db8::/32" });
    for (const address of ["192.0.2.10", "10.200.0.1", "127.0.0.1", "127.8.9.10"]) expect(dev.rateLimitExempt.check(address, "ipv4"), address).toBe(true);
    for (const address of ["2001:db8::1", "::1"]) expect(dev.rateLimitExempt.check(address, "ipv6"), address).toBe(true);
    expect(dev.rateLimitExempt.check("192.0.2.11", "ipv4")).toBe(false);
    const production = readEnv(PRODUCTION);
    expect(production.rateLimitExempt.check("127.0.0.1", "ipv4")).toBe(false);
    expect(production.rateLimitExempt.check("::1", "ipv6")).toBe(false);
  });

  it("stops the start with one line naming a bad entry", async () => {
    expect(() => readEnv({ LATCHKEY_RATE_LIMIT_EXEMPT: "10.0.0.0/8, 10.0.0.0/33" })).toThrow(
      'Invalid Latchkey configuration: LATCHKEY_RATE_LIMIT_EXEMPT: "10.0.0.0/33" is not an IP address or CIDR range',
    );
    const server = runServerProcess({ LATCHKEY_RATE_LIMIT_EXEMPT: "ci-runner.example.com", LATCHKEY_DATA_DIR: "/nonexistent-never-used" });
    expect(await server.exited).toBe(2);
    expect(server.output().trim()).toBe('Invalid Latchkey configuration: LATCHKEY_RATE_LIMIT_EXEMPT: "ci-runner.example.com" is not an IP address or CIDR range');
  });
});
