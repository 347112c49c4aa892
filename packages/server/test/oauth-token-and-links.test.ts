import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { stackSdk } from "./support/stack-sdk.js";
import { as, CALLBACK, clientFlow, codeFrom, email, exchange, expectKnownError, loginAs, oauthProject, server, useOAuthServerForFile, type ClientFlow } from "./oauth/oauth-fixture.js";

// Issue 29 §2: the authorization_code answer of /auth/oauth/token and the /oauth-providers refusals, as the
// reference server words them.
useOAuthServerForFile();

type Project = Awaited<ReturnType<typeof oauthProject>>;

/** A flow whose PKCE challenge is the verifier itself (RFC 7636 §4.2 `plain`). */
function plainFlow(project: Project): ClientFlow {
  const flow = clientFlow(project, "github");
  const url = new URL(flow.authorizeUrl);
  url.searchParams.set("code_challenge", flow.verifier);
  url.searchParams.set("code_challenge_method", "plain");
  return { ...flow, authorizeUrl: url.toString() };
}

describe("the authorization_code answer", () => {
  it("has the reference's fields in its order, Bearer and 3599 s, with Pragma: no-cache", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github", { afterCallback: "http://localhost:3000/after" });
    const response = await exchange(project, codeFrom(flow, await loginAs(flow, email())), flow.verifier);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("pragma")).toBe("no-cache");
    expect(Object.keys(response.body)).toEqual([
      "access_token",
      "refresh_token",
      "token_type",
      "expires_in",
      "scope",
      "is_new_user",
      "newUser",
      "after_callback_redirect_url",
      "afterCallbackRedirectUrl",
    ]);
    expect(response.body).toMatchObject({
      token_type: "Bearer",
      expires_in: 3599,
      scope: "legacy",
      is_new_user: true,
      newUser: true,
      after_callback_redirect_url: "http://localhost:3000/after",
      afterCallbackRedirectUrl: "http://localhost:3000/after",
    });
  });

  it("takes a plain PKCE challenge, and refuses a verifier that is not it", async () => {
    const project = await oauthProject();
    const flow = plainFlow(project);
    const ok = await exchange(project, codeFrom(flow, await loginAs(flow, email())), flow.verifier);
    expect(ok.status, ok.text).toBe(200);
    const other = plainFlow(project);
    // The S256 of the verifier is what an S256 flow would send: not the plain challenge.
    const s256 = createHash("sha256").update(other.verifier).digest("base64url");
    expectKnownError(await exchange(project, codeFrom(other, await loginAs(other, email())), s256), "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("keeps S256 for every other method: the challenge itself is not a verifier there", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github");
    const challenge = new URL(flow.authorizeUrl).searchParams.get("code_challenge")!;
    expectKnownError(await exchange(project, codeFrom(flow, await loginAs(flow, email())), challenge), "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("refuses another redirect_uri than the authorize request's with the reference's text", async () => {
    const project = await oauthProject();
    const flow = clientFlow(project, "github");
    const response = await exchange(project, codeFrom(flow, await loginAs(flow, email())), flow.verifier, `${CALLBACK}/elsewhere`);
    expect([response.status, response.text]).toEqual([400, "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code."]);
  });
});

describe("/oauth-providers refusals", () => {
  const create = (project: Project, body: Record<string, unknown>) =>
    as(project, "server", "/oauth-providers", { body: { provider_config_id: "github", email: "x@example.com", allow_sign_in: true, allow_connected_accounts: true, ...body } });
  const newUser = async (project: Project) => (await as(project, "server", "/users", { body: {} })).body.id as string;
  const expectText = (response: { status: number; text: string }, status: number, text: string) => expect([response.status, response.text]).toEqual([status, text]);

  it("answers an unknown provider_config_id with a 404 text, before looking at the user", async () => {
    const project = await oauthProject();
    expectText(await create(project, { user_id: crypto.randomUUID(), provider_config_id: "spotify", account_id: "a" }), 404, "OAuth provider spotify not found or not configured");
    expectKnownError(await create(project, { user_id: crypto.randomUUID(), account_id: "a" }), "USER_NOT_FOUND", 404);
  });

  it("refuses a second sign-in link of the same provider type, then the same account id again, for one user", async () => {
    const project = await oauthProject({ "auth.oauth.providers.github-work": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } });
    const userId = await newUser(project);
    expect((await create(project, { user_id: userId, account_id: "first" })).status).toBe(201);
    const sameType = "The same provider type with sign-in enabled already exists for this user.";
    const sameAccount = "The same provider type with the same account ID already exists for this user.";
    expectText(await create(project, { user_id: userId, account_id: "second" }), 400, sameType);
    // Another entry of the same type counts as the same provider type.
    expectText(await create(project, { user_id: userId, provider_config_id: "github-work", account_id: "second" }), 400, sameType);
    // Sign-in is checked first; without it, the account id.
    expectText(await create(project, { user_id: userId, account_id: "first" }), 400, sameType);
    expectText(await create(project, { user_id: userId, account_id: "first", allow_sign_in: false }), 400, sameAccount);
    expectText(await create(project, { user_id: userId, provider_config_id: "github-work", account_id: "first", allow_sign_in: false }), 400, sameAccount);
    // A connected account of another id is fine; another user may sign in with another account.
    const second = await create(project, { user_id: userId, account_id: "second", allow_sign_in: false });
    expect(second.status).toBe(201);
    expect((await create(project, { user_id: await newUser(project), account_id: "third" })).status).toBe(201);

    // PATCH keeps the same rules: the second link may not sign in too, nor take the first one's account id.
    expectText(await as(project, "server", `/oauth-providers/${userId}/${second.body.id}`, { method: "PATCH", body: { allow_sign_in: true } }), 400, sameType);
    expectText(await as(project, "server", `/oauth-providers/${userId}/${second.body.id}`, { method: "PATCH", body: { account_id: "first" } }), 400, sameAccount);
    const unchanged = await as(project, "server", `/oauth-providers/${userId}/${second.body.id}`, { method: "PATCH", body: { account_id: "second", allow_sign_in: false } });
    expect(unchanged.body).toMatchObject({ account_id: "second", allow_sign_in: false });
  });

  it("checks the body as the protocol's schema does, and leaves out an email the link does not have", async () => {
    const project = await oauthProject();
    const userId = await newUser(project);
    const schemaError = (response: { body: { code: string; error: string } }) => [response.body.code, response.body.error.split("\n").slice(1)];
    expect(schemaError(await create(project, { user_id: "abc", account_id: "a" }))).toEqual(["SCHEMA_ERROR", ["  - body.user_id must be a valid UUID"]]);
    expect(schemaError(await create(project, { user_id: userId, account_id: "a", email: "not an email" }))).toEqual(["SCHEMA_ERROR", ["  - body.email must be a valid email"]]);
    // yup's email check: the HTML standard's production, an empty string passing; any account id, empty too.
    const loose = await create(project, { user_id: userId, account_id: "", email: "a@b", allow_sign_in: false });
    expect(loose.status, loose.text).toBe(201);
    expect(loose.body).toMatchObject({ account_id: "", email: "a@b" });
    const { email: _, ...withoutEmail } = { provider_config_id: "github", user_id: userId, account_id: "no-email", allow_sign_in: false, allow_connected_accounts: true, email: undefined };
    const created = await as(project, "server", "/oauth-providers", { body: withoutEmail });
    expect(created.status, created.text).toBe(201);
    const read = await as(project, "server", `/oauth-providers/${userId}/${created.body.id}`);
    const listed = (await as(project, "server", `/oauth-providers?user_id=${userId}`)).body.items.find((item: { id: string }) => item.id === created.body.id);
    for (const link of [created.body, read.body, listed]) expect(Object.keys(link)).not.toContain("email");
  });

  it("gives the texts to @stackframe/js 2.8.41's createOAuthProvider", async () => {
    const project = await oauthProject();
    const app: any = stackSdk(server, project).server();
    const userId = await newUser(project);
    const options = { userId, providerConfigId: "github", accountId: randomBytes(8).toString("hex"), email: "x@example.com", allowSignIn: true, allowConnectedAccounts: true };
    const created = await app.createOAuthProvider(options);
    expect(created.status).toBe("ok");
    await expect(app.createOAuthProvider({ ...options, accountId: "other" })).rejects.toThrow("The same provider type with sign-in enabled already exists for this user.");
    await expect(app.createOAuthProvider({ ...options, allowSignIn: false })).rejects.toThrow("The same provider type with the same account ID already exists for this user.");
    await expect(app.createOAuthProvider({ ...options, providerConfigId: "spotify" })).rejects.toThrow("OAuth provider spotify not found or not configured");
  });
});
