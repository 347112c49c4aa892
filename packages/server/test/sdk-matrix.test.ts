import { randomBytes } from "node:crypto";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors as KnownErrors41 } from "@stackframe/stack-shared/dist/known-errors";
import { CODES_ONLY_IN } from "@latchkey/protocol/dialects";
import { fieldNamesByVersion } from "@latchkey/protocol/schemas";
import { API_ROUTES } from "../src/app.js";
import { api } from "./support/api.js";
import { SDK_VERSIONS, stackSdk, type SdkVersion } from "./support/stack-sdk.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// Issue 14: the SDK an app installs today (@stackframe/js@2.8.108, x-hexclave-* headers) and last year's
// (2.8.41, x-stack-*), both unchanged, through the same basic steps against one server. Access tokens live
// 26 s here: both SDKs refresh a token with less than 20 s left through the OAuth token endpoint.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LATCHKEY_ACCESS_TOKEN_LIFETIME_SECONDS: "26" });
  globalThis.fetch = recordingFetch;
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await server?.close();
});

/** Every API answer the SDKs got, with the version their request's headers named. */
interface Exchange {
  version: SdkVersion;
  url: string;
  headers: string[];
  body: string;
}
const exchanges: Exchange[] = [];
const realFetch = globalThis.fetch;
const recordingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await realFetch(request);
  const names = [...request.headers.keys()];
  const version = names.some((name) => name.startsWith("x-hexclave-")) ? "2.8.108" : names.some((name) => name.startsWith("x-stack-")) ? "2.8.41" : undefined;
  if (version) exchanges.push({ version, url: request.url, headers: [...response.headers.keys()], body: await response.clone().text() });
  return response;
};

/** The reference's 2.8.41 access-token claims, in its order. */
const CLAIMS_2_8_41 = ["sub", "project_id", "branch_id", "refresh_token_id", "role", "name", "email", "email_verified", "selected_team_id", "is_anonymous", "iss", "aud", "exp", "iat"];
const verificationCallbackUrl = "http://localhost:3000/handler/email-verification";
const PASSWORD = "correct horse battery";
const newEmail = () => `matrix-${crypto.randomUUID()}@example.com`;
// The catalogue each SDK throws from: 2.8.108's own copy of its shared package, nested under it.
const catalogue108 = new URL("../../../node_modules/@stackframe/js-2.8.108/node_modules/@stackframe/stack-shared/dist/esm/known-errors.js", import.meta.url).href;
const knownErrorsOf = async (version: SdkVersion) =>
  (version === "2.8.41" ? KnownErrors41 : (await import(/* @vite-ignore */ catalogue108)).KnownErrors) as typeof KnownErrors41;

function authenticatorCode(secret: Uint8Array): string {
  return new TOTP({ secret: new Secret({ buffer: new Uint8Array(secret).buffer }), algorithm: "SHA1", digits: 6, period: 30 }).generate();
}

describe.each(SDK_VERSIONS)("the published Stack SDK %s", (version) => {
  let project: TestProject;
  beforeAll(async () => {
    project = await createTestProject(server, `Matrix ${version}`);
    const configured = await api(server.url, "/internal/config/override", {
      method: "PATCH",
      headers: project.headers("admin"),
      body: { config_override_string: JSON.stringify({ "teams.allowClientTeamCreation": true }) },
    });
    expect(configured.status).toBe(200);
  });
  const sdk = () => stackSdk(server, project, version);

  it("signs up, reads and updates the user, refreshes through the token endpoint, signs out, and the session is gone", async () => {
    const app = sdk().client();
    const email = newEmail();
    expect((await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, verificationCallbackUrl })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe(email);
    expect(user.hasPassword).toBe(true);
    expect(user.isAnonymous).toBe(false);

    await user.update({ displayName: "Ada Lovelace", clientMetadata: { theme: "dark" } });
    const updated = await app.getUser({ or: "throw" });
    expect(updated.displayName).toBe("Ada Lovelace");
    expect(updated.clientMetadata).toEqual({ theme: "dark" });

    const before = await updated.getAuthJson();
    await new Promise((resolve) => setTimeout(resolve, 6500));
    const after = await (await app.getUser({ or: "throw" })).getAuthJson();
    expect(after.accessToken).toBeTruthy();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).toBe(before.refreshToken);

    await updated.signOut();
    expect(await app.getUser()).toBeNull();
    const reuse = await api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": before.refreshToken! } });
    expect(reuse.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  }, 60_000);

  it("signs in, and reports a wrong password as the SDK's own known-error class", async () => {
    const email = newEmail();
    expect((await sdk().client().signUpWithCredential({ email, password: PASSWORD, noRedirect: true, verificationCallbackUrl })).status).toBe("ok");
    const app = sdk().client();
    const wrong = await app.signInWithCredential({ email, password: "not the password", noRedirect: true });
    expect(wrong.status).toBe("error");
    if (wrong.status === "error") expect(wrong.error).toBeInstanceOf((await knownErrorsOf(version)).EmailPasswordMismatch);
    expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe(email);
    // Its access token carries its own version's claims (issue 29 §3), which the SDK accepted above.
    const claims = Object.keys(decodeJwt((await user.currentSession.getTokens()).accessToken!));
    if (version === "2.8.41") expect(claims).toEqual(CLAIMS_2_8_41);
    else expect(claims.sort()).toEqual([...CLAIMS_2_8_41, "signed_up_at", "is_restricted", "restricted_reason", "requires_totp_mfa"].sort());
    // A missing user read by the server is the SDK's null, and a bad team id its known error.
    const missing = await sdk().server().getTeam(crypto.randomUUID());
    expect(missing).toBeNull();
  });

  it("creates a team, which the user then lists and selects", async () => {
    const app = sdk().client();
    await app.signUpWithCredential({ email: newEmail(), password: PASSWORD, noRedirect: true, verificationCallbackUrl });
    const user = await app.getUser({ or: "throw" });
    const team = await user.createTeam({ displayName: `Team of ${version}` });
    expect(team.displayName).toBe(`Team of ${version}`);
    expect((await user.listTeams()).map((t) => t.id)).toContain(team.id);
    // The SDK selects the team it created with its own update of the user.
    expect((await app.getUser({ or: "throw" })).selectedTeam?.id).toBe(team.id);
  });

  it("creates, lists, reads, updates and deletes users as a server", async () => {
    const app = sdk().server();
    const email = newEmail();
    const created = await app.createUser({ primaryEmail: email, password: "server-set password", primaryEmailAuthEnabled: true, displayName: "Made by server" });
    expect(created.primaryEmail).toBe(email);
    expect((await app.listUsers()).map((u) => u.id)).toContain(created.id);
    const read = await app.getUser(created.id);
    expect(read?.displayName).toBe("Made by server");
    await read!.update({ serverMetadata: { plan: "pro" } });
    expect((await app.getUser(created.id))?.serverMetadata).toEqual({ plan: "pro" });
    await read!.delete();
    expect(await app.getUser(created.id)).toBeNull();
  });

  it("reads the project as an admin", async () => {
    const read = await sdk().admin().getProject();
    expect(read.id).toBe(project.projectId);
    expect(read.displayName).toBe(`Matrix ${version}`);
    expect(read.config.credentialEnabled).toBe(true);
  });

  it("turns TOTP MFA on, is asked for it at sign-in, and signs in with the authenticator's code", async () => {
    const email = newEmail();
    const app = sdk().client();
    await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, verificationCallbackUrl });
    const user = await app.getUser({ or: "throw" });
    const secret = new Uint8Array(randomBytes(20));
    await user.update({ totpMultiFactorSecret: secret });
    expect((await app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(true);
    await user.signOut();

    // With no browser to go to its MFA page, the SDK says it could not redirect there.
    const signIn = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true }).catch((error: unknown) => error);
    expect(String(signIn)).toContain("redirectToMfa");
    const first = await api(server.url, "/auth/password/sign-in", { method: "POST", headers: project.headers("client"), body: { email, password: PASSWORD } });
    const finished = await app.signInWithMfa(authenticatorCode(secret), first.body.details.attempt_code, { noRedirect: true });
    expect(finished.status).toBe("ok");
    expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("logs a command-line tool in through the confirmation link", async () => {
    const browser = sdk().client();
    await browser.signUpWithCredential({ email: newEmail(), password: PASSWORD, noRedirect: true, verificationCallbackUrl });
    const person = await browser.getUser({ or: "throw" });
    const { refreshToken } = await person.currentSession.getTokens();
    const confirmations: Promise<{ status: number }>[] = [];
    const cli = sdk().client();
    const options = {
      appUrl: "https://app.example.com",
      waitTimeMillis: 50,
      maxAttempts: 100,
      promptLink: (url: string) => {
        const loginCode = new URL(url).searchParams.get("login_code")!;
        confirmations.push(api(server.url, "/auth/cli/complete", { method: "POST", headers: project.headers("client"), body: { login_code: loginCode, refresh_token: refreshToken } }));
      },
    };
    const result = await cli.promptCliLogin(options as Parameters<typeof cli.promptCliLogin>[0]);
    expect((await confirmations[0])?.status).toBe(200);
    if (result.status !== "ok") throw result.error;
    const refreshed = await api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": result.data } });
    const cliUser = await sdk().client().getUser({ or: "throw", tokenStore: { accessToken: refreshed.body.access_token, refreshToken: result.data } });
    expect(cliUser.id).toBe(person.id);
  });

  it("signs up an anonymous user, who is the same on the next call and hidden from plain getUser()", async () => {
    const app = sdk().client();
    const anonymous = await app.getUser({ or: "anonymous" });
    expect(anonymous.isAnonymous).toBe(true);
    expect((await app.getUser({ or: "anonymous" })).id).toBe(anonymous.id);
    expect(await app.getUser()).toBeNull();
    expect((await sdk().server().getUser(anonymous.id))?.isAnonymous).toBe(true);
  });
});

describe("what each SDK version was answered", () => {
  /** JSON keys anywhere in a body. */
  const keysOf = (body: string): Set<string> => {
    const keys = new Set<string>();
    const visit = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === "object") for (const [key, child] of Object.entries(value)) keys.add(key) && visit(child);
    };
    try {
      visit(JSON.parse(body));
    } catch {
      // text answers have no keys
    }
    return keys;
  };
  const onlyIn = (version: SdkVersion) => {
    const found = { marked: new Set<string>(), unmarked: new Set<string>() };
    for (const route of API_ROUTES) fieldNamesByVersion(route.response.schema, version, found);
    return [...found.marked].filter((name) => !found.unmarked.has(name));
  };

  it("never gave one version the other's headers, fields or error codes", () => {
    for (const version of SDK_VERSIONS) expect(exchanges.filter((e) => e.version === version).length, version).toBeGreaterThan(30);
    const newerFields = onlyIn("2.8.108");
    expect(newerFields).toContain("is_restricted");
    for (const exchange of exchanges) {
      const other = exchange.version === "2.8.41" ? "2.8.108" : "2.8.41";
      const where = `${exchange.version} ${exchange.url}`;
      if (exchange.version === "2.8.41") expect(exchange.headers.filter((name) => name.startsWith("x-hexclave-")), where).toEqual([]);
      const keys = keysOf(exchange.body);
      expect(onlyIn(other).filter((name) => keys.has(name)), where).toEqual([]);
      const code = (() => {
        try {
          return (JSON.parse(exchange.body) as { code?: string }).code;
        } catch {
          return undefined;
        }
      })();
      if (code) expect(CODES_ONLY_IN[other], where).not.toContain(code);
    }
  });
});
