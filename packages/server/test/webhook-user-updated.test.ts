import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../src/services/projects.js";
import { signInUser } from "../src/services/sessions.js";
import { getProject } from "../src/services/projects.js";
import { api } from "./support/api.js";
import { codeIn } from "./support/email-flow-fixture.js";
import type { SmtpCapture } from "./support/smtp-capture.js";
import { SoftwareAuthenticator } from "./support/software-authenticator.js";
import { createTestProject, type TestProject, type TestServer } from "./support/test-server.js";
import { expectSameEvents, useWebhookServer } from "./support/webhooks-fixture.js";

/**
 * Webhooks (issue 18): `user.updated` for changes made outside the user update route — contact channels, email
 * verification, passwords, an anonymous user's sign-up, provider links, OTP and passkey sign-in turned on by
 * their first use — sent when the user's server read shape changes, and only then.
 */

const fixture = useWebhookServer();
const { listen, as } = fixture;
let server: TestServer;
let smtp: SmtpCapture;
beforeAll(() => ({ server, smtp } = fixture.parts()));

const APP_ORIGIN = "http://localhost:3000";
const email = () => `updated-${crypto.randomUUID()}@example.com`;

function project(): Promise<TestProject> {
  return createTestProject(server, "User updates", {
    configOverride: {
      ...NEW_PROJECT_CONFIG_OVERRIDE,
      "auth.otp.allowSignIn": true,
      "auth.passkey.allowSignIn": true,
      "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
    },
  });
}

/** The user.updated messages written for the user so far: written with the change, so exact once it answered. */
async function updatesWritten(projectId: string, userId: string): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select count(*)::int as count from webhook_messages
    where project_id = ${projectId} and event_type = 'user.updated' and payload -> 'data' ->> 'id' = ${userId}`.execute(server.db);
  return rows[0]!.count;
}

async function newUser(p: TestProject, body: Record<string, unknown>) {
  const created = await as(p, "server", "/users", "POST", body);
  expect(created.status, created.text).toBe(201);
  const tokens = await signInUser(server.db, server.env, { project: await getProject(server.db, p.projectId), userId: created.body.id });
  const asUser = (path: string, method = "GET", payload?: unknown, extra: Record<string, string> = {}) =>
    api(server.url, path, { method, body: payload, headers: { ...p.headers("client"), "x-stack-access-token": tokens.access_token, ...extra } });
  return { id: created.body.id as string, asUser };
}

const pick = (data: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(keys.map((key) => [key, data[key]]));

describe("user.updated for contact channel changes", () => {
  it("is sent when the primary email is added, verified or removed, not for another channel", async () => {
    const p = await project();
    const hook = await listen(p, { filterTypes: ["user.updated"] });
    const user = await newUser(p, {});
    const address = email();
    const primary = await as(p, "server", "/contact-channels", "POST", { user_id: user.id, type: "email", value: address, used_for_auth: false, is_primary: true });
    expect(primary.status, primary.text).toBe(201);
    expect(await updatesWritten(p.projectId, user.id)).toBe(1);
    // Not the primary one: the read shape does not show it.
    const other = await as(p, "server", "/contact-channels", "POST", { user_id: user.id, type: "email", value: email(), used_for_auth: false });
    expect(other.status, other.text).toBe(201);
    expect(await updatesWritten(p.projectId, user.id)).toBe(1);
    expect((await as(p, "server", `/contact-channels/${user.id}/${primary.body.id}`, "PATCH", { is_verified: true })).status).toBe(200);
    expect((await as(p, "server", `/contact-channels/${user.id}/${other.body.id}`, "PATCH", { is_verified: true })).status).toBe(200);
    expect(await updatesWritten(p.projectId, user.id)).toBe(2);
    expect((await as(p, "server", `/contact-channels/${user.id}/${primary.body.id}`, "DELETE")).status).toBe(200);
    const deliveries = await hook.waitFor(3);
    expectSameEvents(
      deliveries.map((d) => pick(d.verified!.data, "id", "primary_email", "primary_email_verified")),
      [
        { id: user.id, primary_email: address, primary_email_verified: false },
        { id: user.id, primary_email: address, primary_email_verified: true },
        { id: user.id, primary_email: null, primary_email_verified: false },
      ],
    );
  });

  it("is sent when the user verifies the primary email with the mailed code", async () => {
    const p = await project();
    const hook = await listen(p, { filterTypes: ["user.updated"] });
    const address = email();
    const user = await newUser(p, { primary_email: address, primary_email_verified: false });
    const sent = await user.asUser("/contact-channels/send-verification-code", "POST", { email: address, callback_url: `${APP_ORIGIN}/handler/email-verification` });
    expect(sent.status, sent.text).toBe(200);
    const verified = await api(server.url, "/contact-channels/verify", { method: "POST", body: { code: codeIn(await smtp.nextMessage(address)) }, headers: p.headers("client") });
    expect(verified.status, verified.text).toBe(200);
    const [delivery] = await hook.waitFor(1);
    expect(delivery!.verified!.data).toMatchObject({ id: user.id, primary_email: address, primary_email_verified: true });
  });
});

describe("user.updated for passwords", () => {
  it("is sent when a user sets a first password, not when it is changed (has_password stays true)", async () => {
    const p = await project();
    const hook = await listen(p, { filterTypes: ["user.updated"] });
    const user = await newUser(p, { primary_email: email(), primary_email_verified: true });
    const set = await user.asUser("/auth/password/set", "POST", { password: "first-password-1" });
    expect(set.status, set.text).toBe(200);
    const [delivery] = await hook.waitFor(1);
    expect(delivery!.verified!.data).toMatchObject({ id: user.id, has_password: true, auth_with_email: true });
    const changed = await user.asUser("/auth/password/update", "POST", { old_password: "first-password-1", new_password: "second-password-2" });
    expect(changed.status, changed.text).toBe(200);
    expect(await updatesWritten(p.projectId, user.id)).toBe(1);
  });

  it("is sent when an anonymous user signs up with a password, keeping its id", async () => {
    const p = await project();
    const hook = await listen(p, { filterTypes: ["user.updated"] });
    const anonymous = await api(server.url, "/auth/anonymous/sign-up", { method: "POST", body: {}, headers: p.headers("client") });
    expect(anonymous.status, anonymous.text).toBe(200);
    const address = email();
    const signedUp = await api(server.url, "/auth/password/sign-up", {
      method: "POST",
      body: { email: address, password: "a-password-1" },
      headers: { ...p.headers("client"), "x-stack-access-token": anonymous.body.access_token, "x-stack-allow-anonymous-user": "true" },
    });
    expect(signedUp.status, signedUp.text).toBe(200);
    expect(signedUp.body.user_id).toBe(anonymous.body.user_id);
    const [delivery] = await hook.waitFor(1);
    expect(delivery!.verified!.data).toMatchObject({ id: anonymous.body.user_id, is_anonymous: false, has_password: true, primary_email: address });
  });
});

describe("user.updated for provider links", () => {
  it("is sent when a link is made, its account changes, or it is removed; not for its connected-account flag", async () => {
    const p = await project();
    const hook = await listen(p, { filterTypes: ["user.updated"] });
    const user = await newUser(p, {});
    const address = email();
    const link = await as(p, "server", "/oauth-providers", "POST", {
      user_id: user.id,
      provider_config_id: "github",
      account_id: "gh-1",
      email: address,
      allow_sign_in: false,
      allow_connected_accounts: true,
    });
    expect(link.status, link.text).toBe(201);
    expect((await as(p, "server", `/oauth-providers/${user.id}/${link.body.id}`, "PATCH", { account_id: "gh-2" })).status).toBe(200);
    expect((await as(p, "server", `/oauth-providers/${user.id}/${link.body.id}`, "PATCH", { allow_connected_accounts: false })).status).toBe(200);
    expect(await updatesWritten(p.projectId, user.id)).toBe(2);
    expect((await as(p, "server", `/oauth-providers/${user.id}/${link.body.id}`, "DELETE")).status).toBe(200);
    const deliveries = await hook.waitFor(3);
    expectSameEvents(
      deliveries.map((d) => d.verified!.data.oauth_providers),
      [[{ id: "github", account_id: "gh-1", email: address }], [{ id: "github", account_id: "gh-2", email: address }], []],
    );
  });
});

describe("user.updated for sign-in methods turned on by their first use", () => {
  it("is sent when an existing user first signs in with an emailed code (otp_auth_enabled)", async () => {
    const p = await project();
    const hook = await listen(p, { filterTypes: ["user.updated"] });
    const address = email();
    const user = await newUser(p, { primary_email: address, primary_email_verified: true, primary_email_auth_enabled: true });
    const sent = await api(server.url, "/auth/otp/send-sign-in-code", { method: "POST", body: { email: address, callback_url: `${APP_ORIGIN}/handler/magic-link-callback` }, headers: p.headers("client") });
    expect(sent.status, sent.text).toBe(200);
    const signedIn = await api(server.url, "/auth/otp/sign-in", { method: "POST", body: { code: codeIn(await smtp.nextMessage(address)) }, headers: p.headers("client") });
    expect(signedIn.status, signedIn.text).toBe(200);
    const [delivery] = await hook.waitFor(1);
    expect(delivery!.verified!.data).toMatchObject({ id: user.id, otp_auth_enabled: true, auth_with_email: true });
  });

  it("is sent when a user registers a passkey (passkey_auth_enabled)", async () => {
    const p = await project();
    const hook = await listen(p, { filterTypes: ["user.updated"] });
    const user = await newUser(p, { primary_email: email(), primary_email_verified: true });
    const page = { origin: APP_ORIGIN };
    const initiated = await user.asUser("/auth/passkey/initiate-passkey-registration", "POST", {}, { origin: APP_ORIGIN });
    expect(initiated.status, initiated.text).toBe(200);
    const credential = new SoftwareAuthenticator().register(initiated.body.options_json, page);
    const registered = await user.asUser("/auth/passkey/register", "POST", { credential, code: initiated.body.code }, { origin: APP_ORIGIN });
    expect(registered.status, registered.text).toBe(200);
    const [delivery] = await hook.waitFor(1);
    expect(delivery!.verified!.data).toMatchObject({ id: user.id, passkey_auth_enabled: true });
  });
});
