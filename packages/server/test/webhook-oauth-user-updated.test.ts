import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Svix } from "svix";
import { api } from "./support/api.js";
import type { TestProject } from "./support/test-server.js";
import { startReceiver, type Receiver } from "./support/webhooks-fixture.js";
import { as, email, oauthProject, server, signInWithProvider, useOAuthServerForFile } from "./oauth/oauth-fixture.js";

/**
 * Webhooks (issue 18): `user.updated` when a provider account joins an existing user through the OAuth flow —
 * linked by the signed-in user, merged by email (`link_method`), or an anonymous user signing up with it. The
 * OAuth suite's server (a real OpenID provider process) delivering to a real receiver that verifies with `svix`.
 */

useOAuthServerForFile({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

/** An endpoint of the project taking user.updated; its verified events so far, waited for. */
async function listenForUpdates(project: TestProject) {
  const token = await api(server.url, "/webhooks/svix-token", { method: "POST", body: {}, headers: project.headers("admin") });
  expect(token.status, token.text).toBe(201);
  const svix = new Svix(token.body.token, { serverUrl: `${server.url}/api/v1/webhooks/svix` });
  const path = `/hook/${crypto.randomUUID()}`;
  const endpoint = await svix.endpoint.create(project.projectId, { url: receiver.url + path, filterTypes: ["user.updated"] });
  receiver.secrets.set(path, (await svix.endpoint.getSecret(project.projectId, endpoint.id)).key);
  return async (count: number) => {
    const deadline = Date.now() + 20_000;
    const received = () => receiver.deliveries.filter((d) => d.path === path);
    while (received().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(received().length).toBeGreaterThanOrEqual(count);
    return received().map((d) => d.verified!);
  };
}

const providerIds = (data: any) => data.oauth_providers.map((p: { id: string }) => p.id).sort();

describe("user.updated for provider accounts joining a user", () => {
  it("is sent when a signed-in user links another provider account", async () => {
    const project = await oauthProject();
    const owner = await signInWithProvider(project, "github", email());
    const updates = await listenForUpdates(project);
    await signInWithProvider(project, "gitlab", email(), { type: "link", token: owner.access_token });
    const [event] = await updates(1);
    expect(event!.type).toBe("user.updated");
    expect(providerIds(event!.data)).toEqual(["github", "gitlab"]);
  });

  it("is sent when link_method merges a provider account into the user with that verified email", async () => {
    const project = await oauthProject({ "auth.oauth.accountMergeStrategy": "link_method" });
    const who = email();
    const created = await as(project, "server", "/users", { method: "POST", body: { primary_email: who, primary_email_verified: true, primary_email_auth_enabled: true } });
    expect(created.status, created.text).toBe(201);
    const updates = await listenForUpdates(project);
    await signInWithProvider(project, "github", who);
    const [event] = await updates(1);
    expect(event!.data).toMatchObject({ id: created.body.id, oauth_providers: [{ id: "github", account_id: who, email: who }] });
  });

  it("is sent when an anonymous user signs up with a provider, keeping its id", async () => {
    const project = await oauthProject();
    const anonymous = await api(server.url, "/auth/anonymous/sign-up", { method: "POST", headers: project.headers("client"), body: {} });
    expect(anonymous.status).toBe(200);
    const updates = await listenForUpdates(project);
    const who = email();
    await signInWithProvider(project, "github", who, { token: anonymous.body.access_token });
    const [event] = await updates(1);
    expect(event!.data).toMatchObject({ id: anonymous.body.user_id, is_anonymous: false, primary_email: who });
    expect(providerIds(event!.data)).toEqual(["github"]);
  });
});
