import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as passwords from "../src/crypto/passwords.js";
import { recordFailedAttempt, secondsBlocked, type ThrottleSubject } from "../src/services/auth-throttle.js";
import { api, type ApiResponse } from "./support/api.js";
import * as emailFlow from "./support/email-flow-fixture.js";
import { PRODUCTION, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// Issue 30 §3: four bursts of 16 parallel wrong passwords had 24 checked where the limit allows 8, and across two
// server processes 16 of 16: every attempt read "not blocked" before any of them was counted. Each limit now takes
// its slot in the statement that checks it (services/auth-throttle.ts), so a burst checks no more secrets than the
// same attempts made one by one. Two servers share one database here, as processes of one deployment do (real
// processes: auth-throttle-processes.test.ts). Production mode: loopback clients are counted per address.
//
// An attempt let through is held at the password check until every other attempt of its burst has been answered:
// on a loaded machine a request can take more than the one-second block to reach the limit, and then it is rightly
// let through, as one made after the wait. The hold keeps the count independent of that.
const gate = (() => {
  let opened = Promise.resolve();
  let open = () => {};
  return {
    arrived: 0,
    close() {
      gate.arrived = 0;
      opened = new Promise<void>((resolve) => (open = resolve));
    },
    open: () => open(),
    pass: () => opened,
  };
})();
// A spy on the module's export, not vi.mock: the server suites share one loaded server between test files
// (vite.config.ts), and a spy is put back after this file, where a mocked module would stay in the graph.
const realVerifyPassword = passwords.verifyPassword;
beforeAll(() => {
  vi.spyOn(passwords, "verifyPassword").mockImplementation(async (password: string, hash: string) => {
    gate.arrived++;
    await gate.pass();
    return realVerifyPassword(password, hash);
  });
});
afterAll(() => {
  vi.restoreAllMocks();
});

const { email, emailProject, MAGIC_LINK_CALLBACK, post, signUpWithPassword } = emailFlow;
emailFlow.useServerAndSmtpForFile(PRODUCTION);
let second: TestServer;
beforeAll(async () => {
  second = await startTestServer(PRODUCTION, { sameDatabaseAs: emailFlow.server });
});
afterAll(() => second?.close());

const PASSWORD = "correct horse battery staple";
const REFUSED = /^Too many failed attempts\. Please try again in \d+ seconds?\.$/;
/** The test's own address, as the servers see it. */
const CLIENT_IP = "127.0.0.1";

/** `count` requests at once, alternating between the two servers; `answered` counts those back so far. */
function burst(count: number, request: (url: string, i: number) => Promise<ApiResponse>) {
  const tally = { answered: 0 };
  const answers = Promise.all(Array.from({ length: count }, (_, i) => request(i % 2 ? second.url : emailFlow.server.url, i).finally(() => tally.answered++)));
  return { answers, tally };
}

/** Every answer is the attempt's own outcome (a known error's code, or "ok") or the limit's 429; returns how many were let through. */
function expectCheckedOrRefused(answers: ApiResponse[], failure: string, refused = REFUSED): number {
  for (const answer of answers) {
    if (answer.status === 429) expect(answer.text).toMatch(refused);
    else expect(answer.status === 200 ? "ok" : (answer.body?.code ?? answer.text), answer.text).toBe(failure);
  }
  return answers.filter((answer) => answer.status !== 429).length;
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within 30 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("32 parallel wrong passwords on one account through two servers", () => {
  /** The burst with the password checks held until every attempt is answered or waiting at the check. */
  async function heldBurst(project: TestProject, address: string, label: string): Promise<{ answers: ApiResponse[]; checked: number }> {
    gate.close();
    const { answers, tally } = burst(32, (url, i) =>
      api(url, "/auth/password/sign-in", { method: "POST", headers: project.headers("client"), body: { email: address, password: `${label} ${i}` } }),
    );
    await until(() => tally.answered + gate.arrived === 32, "every attempt answered or at the password check");
    const checked = gate.arrived;
    gate.open();
    return { answers: await answers, checked };
  }

  it("check 5 against the hash and refuse the rest; past the threshold a burst checks one", async () => {
    const project = await emailProject();
    const address = email();
    await signUpWithPassword(project, address, PASSWORD);

    const hashesBefore = passwords.passwordHashRuns.argon2Verify;
    const first = await heldBurst(project, address, "wrong");
    expect(first.checked).toBe(5);
    expect(expectCheckedOrRefused(first.answers, "EMAIL_PASSWORD_MISMATCH")).toBe(5);
    // This file's requests run one test at a time, so the process-wide count moves only for these.
    expect(passwords.passwordHashRuns.argon2Verify - hashesBefore).toBe(5);

    // Once the block has passed (read from the database: no attempt spent finding out), one attempt between blocks.
    const subject = { kind: "password" as const, projectId: project.projectId, account: address };
    await until(async () => (await secondsBlocked(emailFlow.server.db, subject)) === 0, "the block passed");
    const next = await heldBurst(project, address, "wrong again");
    expect(next.checked).toBe(1);
    expect(expectCheckedOrRefused(next.answers, "EMAIL_PASSWORD_MISMATCH")).toBe(1);
  });

  it("free their slots when they succeed: 8 parallel right passwords all sign in, and nothing is held after", async () => {
    const project = await emailProject();
    const address = email();
    await signUpWithPassword(project, address, PASSWORD);
    const { answers } = burst(8, (url) => api(url, "/auth/password/sign-in", { method: "POST", headers: project.headers("client"), body: { email: address, password: PASSWORD } }));
    expect((await answers).map((answer) => answer.status)).toEqual(Array(8).fill(200));
    for (let i = 0; i < 5; i++) expect((await post(project, "/auth/password/sign-in", { email: address, password: `wrong ${i}` })).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    expect((await post(project, "/auth/password/sign-in", { email: address, password: PASSWORD })).status).toBe(429);
  });
});

describe("a client address past its threshold, once its block has passed, gets one attempt of a burst", () => {
  /**
   * The address's counter as after `failures` failures and the wait they called for: the next failure blocks it for
   * a minute, however slowly the burst's requests reach the limit.
   */
  async function pastThreshold(subject: ThrottleSubject, failures: number): Promise<void> {
    for (let i = 0; i < failures; i++) await recordFailedAttempt(emailFlow.server.db, subject);
    await sql`update auth_throttles set blocked_until = now() where key like ${`%:${subject.projectId}:%`}`.execute(emailFlow.server.db);
  }
  /** A well-formed code that was never issued. */
  const unknownCode = () => randomBytes(23).toString("hex").slice(0, 45);

  it("one-time codes: one of 32 wrong codes is looked up", async () => {
    const project = await emailProject();
    await pastThreshold({ kind: "otp_code", projectId: project.projectId, clientIp: CLIENT_IP }, 55);
    const { answers } = burst(32, (url) => api(url, "/auth/otp/sign-in", { method: "POST", headers: project.headers("client"), body: { code: unknownCode() } }));
    expect(expectCheckedOrRefused(await answers, "VERIFICATION_CODE_NOT_FOUND")).toBe(1);
  });

  it("secret keys: one of 32 wrong server keys is told wrong", async () => {
    const project = await emailProject();
    await pastThreshold({ kind: "api_key", projectId: project.projectId, clientIp: CLIENT_IP }, 55);
    const { answers } = burst(32, (url, i) => api(url, "/users", { headers: { ...project.headers("server"), "x-stack-secret-server-key": `ssk_wrong${i}` } }));
    expect(expectCheckedOrRefused(await answers, "INVALID_SECRET_SERVER_KEY")).toBe(1);
  });

  it("mail sends: one of 32 sign-in codes asked for at once is sent", async () => {
    const project = await emailProject();
    await pastThreshold({ kind: "mail_send", projectId: project.projectId, clientIp: CLIENT_IP }, 35);
    const addresses = Array.from({ length: 32 }, email);
    const { answers } = burst(32, (url, i) =>
      api(url, "/auth/otp/send-sign-in-code", { method: "POST", headers: project.headers("client"), body: { email: addresses[i], callback_url: MAGIC_LINK_CALLBACK } }),
    );
    const sent = expectCheckedOrRefused(await answers, "ok", /^Too many emails requested\. Please try again in \d+ seconds?\.$/);
    expect(sent).toBe(1);
    // The send is delivered before its request is answered.
    expect(emailFlow.smtp.messages.filter((message) => addresses.some((address) => message.to.includes(address)))).toHaveLength(1);
  });
});
