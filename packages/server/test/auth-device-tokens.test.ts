import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, PRODUCTION, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { afterTheWait, expectRefused, failTimes } from "./support/throttle.js";

// Issue 30 §3: an attacker pacing wrong passwords by Retry-After kept the real user refused on 34 of 43 tries. A
// browser that has signed in to the account before shows the device token it was given then
// (crypto/device-tokens.ts): it is counted on its own instead of against the account, so the attacker's failures
// do not lock it out; the per-address limits apply to it all the same. Production mode: loopback is counted.
let server: TestServer;
let behindProxy: TestServer;
beforeAll(async () => {
  server = await startTestServer(PRODUCTION);
  behindProxy = await startTestServer({ ...PRODUCTION, LATCHKEY_TRUSTED_PROXIES: "127.0.0.1" }, { sameDatabaseAs: server });
});
afterAll(async () => {
  await behindProxy?.close();
  await server?.close();
});

const HEADER = "x-latchkey-device-token";
const PASSWORD = "correct horse battery staple";
const email = () => `user-${crypto.randomUUID()}@example.com`;

async function passwordProject(): Promise<TestProject> {
  const project = await createTestProject(server);
  const configured = await api(server.url, "/internal/projects/current", { method: "PATCH", headers: project.headers("admin"), body: { config: { credential_enabled: true } } });
  expect(configured.status).toBe(200);
  return project;
}

function signIn(project: TestProject, address: string, password: string, options: { token?: string; via?: TestServer; client?: string } = {}): Promise<ApiResponse> {
  const headers = { ...project.headers("client"), ...(options.token ? { [HEADER]: options.token } : {}), ...(options.client ? { "x-forwarded-for": options.client } : {}) };
  return api((options.via ?? server).url, "/auth/password/sign-in", { method: "POST", headers, body: { email: address, password } });
}

/** Signs up, returning the device token the answer carries. */
async function signUp(project: TestProject, address: string): Promise<string> {
  const response = await api(server.url, "/auth/password/sign-up", { method: "POST", headers: project.headers("client"), body: { email: address, password: PASSWORD } });
  expect(response.status, response.text).toBe(200);
  const token = response.headers.get(HEADER);
  expect(token).toMatch(/^lkdv_[\w-]+\.[\w-]+$/);
  return token!;
}

const attack = (project: TestProject, address: string) => failTimes(5, "EMAIL_PASSWORD_MISMATCH", (i) => signIn(project, address, `attacker ${i}`));

describe("an account blocked by an attacker's wrong passwords", () => {
  it("lets in the browser that signed in before, round after round, while others wait", async () => {
    const project = await passwordProject();
    const address = email();
    let token = await signUp(project, address);
    await attack(project, address);
    expectRefused(await signIn(project, address, PASSWORD), 1);

    // The attacker paces by Retry-After; the owner signs in between, each time at once, with the token renewed.
    for (let round = 0; round < 3; round++) {
      const owner = await signIn(project, address, PASSWORD, { token });
      expect(owner.status, owner.text).toBe(200);
      expect(owner.headers.get(HEADER)).toMatch(/^lkdv_/);
      token = owner.headers.get(HEADER)!;
      // The owner's success clears nothing of the attacker's count: the account stays blocked for everyone else.
      expect((await signIn(project, address, PASSWORD)).status).toBe(429);
      expect((await afterTheWait(() => signIn(project, address, `attacker again ${round}`))).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    }
  });

  it("counts the browser's own wrong passwords on their own: five block that browser, not the account", async () => {
    const project = await passwordProject();
    const address = email();
    const token = await signUp(project, address);
    await failTimes(5, "EMAIL_PASSWORD_MISMATCH", (i) => signIn(project, address, `typo ${i}`, { token }));
    expectRefused(await signIn(project, address, PASSWORD, { token }), 1);
    expect((await signIn(project, address, PASSWORD)).status).toBe(200);
  });

  it("still meets the per-address limit: a blocked client address is refused with a token too", async () => {
    const project = await passwordProject();
    const address = email();
    const token = await signUp(project, address);
    await failTimes(50, "EMAIL_PASSWORD_MISMATCH", (i) => signIn(project, email(), `wrong ${i}`, { via: behindProxy, client: "203.0.113.7" }));
    expectRefused(await signIn(project, address, PASSWORD, { token, via: behindProxy, client: "203.0.113.7" }), 1);
    expect((await signIn(project, address, PASSWORD, { token, via: behindProxy, client: "203.0.113.8" })).status).toBe(200);
  });

  it("takes no token of another account or project, nor an altered or malformed one, as proof (and never errs on one)", async () => {
    const project = await passwordProject();
    const other = await passwordProject();
    const address = email();
    const own = await signUp(project, address);
    const anotherAccounts = await signUp(project, email());
    const anotherProjects = await signUp(other, address);
    await attack(project, address);
    const [payload, mac] = own.split(".") as [string, string];
    const altered = `${payload}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
    for (const token of [anotherAccounts, anotherProjects, altered, "lkdv_x.y", "lkdv_" + "A".repeat(5000), "not a token"]) {
      expectRefused(await signIn(project, address, PASSWORD, { token }), 1);
    }
    expect((await signIn(project, address, PASSWORD, { token: own })).status).toBe(200);
  });
});

describe("the device token on the wire", () => {
  it("may be sent and read by a browser on another origin", async () => {
    const preflight = await fetch(`${server.url}/api/v1/auth/password/sign-in`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", "access-control-request-method": "POST", "access-control-request-headers": `x-stack-project-id, ${HEADER}` },
    });
    expect(preflight.headers.get("access-control-allow-headers")!.split(", ")).toContain(HEADER);
    const project = await passwordProject();
    const response = await api(server.url, "/auth/password/sign-up", { method: "POST", headers: { ...project.headers("client"), origin: "https://app.example.com" }, body: { email: email(), password: PASSWORD } });
    expect(response.headers.get("access-control-expose-headers")!.split(", ")).toContain(HEADER);
  });

  it("is not needed by the published SDK (@stackframe/js 2.8.41), which signs in as before and is counted against the account", async () => {
    const project = await passwordProject();
    const address = email();
    await signUp(project, address);
    const app = stackSdk(server, project).client();
    expect((await app.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    await attack(project, address);
    const refused = await signIn(project, address, PASSWORD);
    expect(refused.status).toBe(429);
  });
});
