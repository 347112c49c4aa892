import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// The command-line login flow (issue 8, SPEC §4 "CLI login"): a CLI starts an attempt, a signed-in person
// confirms its login code in the browser, and the CLI's poll gets a refresh token exactly once.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const post = (project: TestProject, path: string, body?: unknown): Promise<ApiResponse> =>
  api(server.url, path, { method: "POST", headers: project.headers("client"), body });
const start = (project: TestProject, body: unknown = {}) => post(project, "/auth/cli", body);
const poll = (project: TestProject, pollingCode: string) => post(project, "/auth/cli/poll", { polling_code: pollingCode });
const complete = (project: TestProject, loginCode: string, refreshToken: string) => post(project, "/auth/cli/complete", { login_code: loginCode, refresh_token: refreshToken });

/** A person signed in in the browser: their sign-in response. */
async function signedInPerson(project: TestProject): Promise<{ user_id: string; refresh_token: string; access_token: string }> {
  const response = await post(project, "/auth/password/sign-up", { email: `person-${crypto.randomUUID()}@example.com`, password: "correct horse battery" });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

async function started(project: TestProject, body: unknown = {}): Promise<{ polling_code: string; login_code: string; expires_at: string }> {
  const response = await start(project, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe("the CLI login flow", () => {
  it("waits, then hands the confirming person's account to the CLI once, then says it was used", async () => {
    const project = await createTestProject(server);
    const before = Date.now();
    const attempt = await started(project);
    expect(Object.keys(attempt).sort()).toEqual(["expires_at", "login_code", "polling_code"]);
    expect(attempt.polling_code).toMatch(/^[0-9a-z]{45}$/);
    expect(attempt.login_code).toMatch(/^[0-9a-z]{45}$/);
    expect(attempt.login_code).not.toBe(attempt.polling_code);
    // Two hours by default.
    expect(Date.parse(attempt.expires_at) - before).toBeGreaterThanOrEqual(2 * 3600_000 - 1000);
    expect(Date.parse(attempt.expires_at) - before).toBeLessThanOrEqual(2 * 3600_000 + 5000);

    const waiting = await poll(project, attempt.polling_code);
    expect(waiting.status).toBe(200);
    expect(waiting.body).toEqual({ status: "waiting" });

    const person = await signedInPerson(project);
    const completed = await complete(project, attempt.login_code, person.refresh_token);
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({ success: true });

    const success = await poll(project, attempt.polling_code);
    expect(success.status).toBe(201);
    expect(Object.keys(success.body).sort()).toEqual(["refresh_token", "status"]);
    expect(success.body.status).toBe("success");
    // The browser's own refresh token, as the reference hands it over: it signs in as the person who confirmed.
    expect(success.body.refresh_token).toBe(person.refresh_token);
    const refreshed = await api(server.url, "/auth/sessions/current/refresh", {
      method: "POST",
      headers: { ...project.headers("client"), "x-stack-refresh-token": success.body.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token).sub).toBe(person.user_id);

    const used = await poll(project, attempt.polling_code);
    expect(used.status).toBe(200);
    expect(used.body).toEqual({ status: "used" });
  });

  it("gives the refresh token to exactly one of many parallel polls", async () => {
    const project = await createTestProject(server);
    const attempt = await started(project);
    expect((await complete(project, attempt.login_code, (await signedInPerson(project)).refresh_token)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 6 }, () => poll(project, attempt.polling_code)));
    expect(answers.filter((a) => a.status === 201 && a.body.status === "success" && typeof a.body.refresh_token === "string")).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200 && a.body.status === "used")).toHaveLength(5);
  });

  it("expires: the CLI is told so and the login code can no longer be confirmed", async () => {
    const project = await createTestProject(server);
    const attempt = await started(project, { expires_in_millis: 50 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const expired = await poll(project, attempt.polling_code);
    expect(expired.status).toBe(200);
    expect(expired.body).toEqual({ status: "expired" });
    const late = await complete(project, attempt.login_code, (await signedInPerson(project)).refresh_token);
    expect(late.status).toBe(400);
    expect(late.text).toBe("Invalid login code or the code has expired");
    expect((await poll(project, attempt.polling_code)).body).toEqual({ status: "expired" });
  });

  it("starts without a body, and refuses a lifetime of more than a day", async () => {
    const project = await createTestProject(server);
    const noBody = await api(server.url, "/auth/cli", { method: "POST", headers: project.headers("client") });
    expect(noBody.status).toBe(200);
    expect(noBody.body.polling_code).toMatch(/^[0-9a-z]{45}$/);
    const tooLong = await start(project, { expires_in_millis: 24 * 3600_000 + 1 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe("SCHEMA_ERROR");
    expect(tooLong.body.error).toContain("body.expires_in_millis must be less than or equal to 86400000");
  });

  it("needs the project's client access", async () => {
    const noKeys = await api(server.url, "/auth/cli", { method: "POST", body: {} });
    expect(noKeys.status).toBe(400);
    expect(noKeys.body.code).toBe("ACCESS_TYPE_REQUIRED");
  });
});

describe("polling", () => {
  it("refuses a polling code that was never issued, or issued by another project", async () => {
    const project = await createTestProject(server);
    const unknown = await poll(project, "0".repeat(45));
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("INVALID_POLLING_CODE");
    expect(unknown.body.error).toBe("The polling code is invalid or does not exist.");
    const attempt = await started(project);
    expect((await poll(await createTestProject(server), attempt.polling_code)).body.code).toBe("INVALID_POLLING_CODE");
    // The login code is not a polling code.
    expect((await poll(project, attempt.login_code)).body.code).toBe("INVALID_POLLING_CODE");
  });

  it("keeps only hashes of the codes", async () => {
    const project = await createTestProject(server);
    const attempt = await started(project);
    const rows = await server.db.selectFrom("cli_auth_attempts").selectAll().where("project_id", "=", project.projectId).execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows.map((row) => Object.values(row).map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString("utf8") : String(v)))));
    expect(stored).not.toContain(attempt.polling_code);
    expect(stored).not.toContain(attempt.login_code);
  });
});

describe("confirming in the browser", () => {
  it("checks a login code without using it, with the protocol's check mode", async () => {
    const project = await createTestProject(server);
    const attempt = await started(project);
    const check = await post(project, "/auth/cli/complete", { login_code: attempt.login_code, mode: "check" });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ cli_session_state: "none" });
    expect((await poll(project, attempt.polling_code)).body).toEqual({ status: "waiting" });
    expect((await complete(project, attempt.login_code, (await signedInPerson(project)).refresh_token)).status).toBe(200);
    const checkAfter = await post(project, "/auth/cli/complete", { login_code: attempt.login_code, mode: "check" });
    expect(checkAfter.status).toBe(400);
    expect(checkAfter.text).toBe("Invalid login code or the code has expired");
  });

  it("confirms a login code once: a second person cannot take the attempt over", async () => {
    const project = await createTestProject(server);
    const attempt = await started(project);
    const first = await signedInPerson(project);
    const second = await signedInPerson(project);
    const answers = await Promise.all([complete(project, attempt.login_code, first.refresh_token), complete(project, attempt.login_code, second.refresh_token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const success = await poll(project, attempt.polling_code);
    const winner = answers[0].status === 200 ? first : second;
    const refreshed = await api(server.url, "/auth/sessions/current/refresh", {
      method: "POST",
      headers: { ...project.headers("client"), "x-stack-refresh-token": success.body.refresh_token },
    });
    expect(decodeJwt(refreshed.body.access_token).sub).toBe(winner.user_id);
  });

  it("checks the login code first: unknown, completed or expired is the plain 400, whatever refresh token comes with it", async () => {
    const project = await createTestProject(server);
    const person = await signedInPerson(project);
    const refused = async (loginCode: string, refreshToken: string) => {
      const response = await complete(project, loginCode, refreshToken);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.text).toBe("Invalid login code or the code has expired");
    };
    await refused("0".repeat(45), person.refresh_token);
    await refused("0".repeat(45), "not-a-refresh-token");

    const completed = await started(project);
    expect((await complete(project, completed.login_code, person.refresh_token)).status).toBe(200);
    await refused(completed.login_code, "not-a-refresh-token");
    await refused(completed.login_code, person.refresh_token);

    const expiring = await started(project, { expires_in_millis: 1 });
    await waitUntil(async () => (await poll(project, expiring.polling_code)).body.status === "expired");
    await refused(expiring.login_code, "not-a-refresh-token");

    const missing = await post(project, "/auth/cli/complete", { login_code: (await started(project)).login_code });
    expect(missing.body.code).toBe("SCHEMA_ERROR");
    expect(missing.body.error).toContain("body.refresh_token must be defined");
    // The first confirmation's token is what its poll gets.
    expect((await poll(project, completed.polling_code)).body).toEqual({ status: "success", refresh_token: person.refresh_token });
  });

  it("stores the refresh token as given, unchecked, and hands it to the poll once", async () => {
    const project = await createTestProject(server);
    const attempt = await started(project);
    const completed = await complete(project, attempt.login_code, "not-a-refresh-token");
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({ success: true });
    const success = await poll(project, attempt.polling_code);
    expect(success.status).toBe(201);
    expect(success.body).toEqual({ status: "success", refresh_token: "not-a-refresh-token" });
    expect((await poll(project, attempt.polling_code)).body).toEqual({ status: "used" });
  });

  it("keeps the refresh token sealed while it waits, and not at all once handed out", async () => {
    const project = await createTestProject(server);
    const person = await signedInPerson(project);
    const attempt = await started(project);
    expect((await complete(project, attempt.login_code, person.refresh_token)).status).toBe(200);
    const row = () => server.db.selectFrom("cli_auth_attempts").selectAll().where("project_id", "=", project.projectId).executeTakeFirstOrThrow();
    const waiting = await row();
    expect(waiting.refresh_token_sealed).not.toBeNull();
    expect(Buffer.from(waiting.refresh_token_sealed!).toString("latin1")).not.toContain(person.refresh_token);
    expect((await poll(project, attempt.polling_code)).body.refresh_token).toBe(person.refresh_token);
    expect(await row()).toMatchObject({ refresh_token_sealed: null, refresh_token_sealing_key_id: null });
  });
});

/** Polls a condition until it holds (a few seconds at most), instead of sleeping for a guessed time. */
async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
