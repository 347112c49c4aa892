import { describe, expect, it } from "vitest";
import { adminAppFor, createTestProject, email, useLiveServer } from "./support/live-server.js";

const live = useLiveServer();

/** A request to the real server as the project's server, for setup the admin app has no call for. */
async function asServer(project: Awaited<ReturnType<typeof createTestProject>>, method: string, path: string, body: unknown, access: "server" | "admin" = "server") {
  const response = await fetch(`${live.server().url}/api/v1${path}`, {
    method,
    headers: { ...project.headers(access), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

describe("an admin app's calls about one user", () => {
  it("lists a user's contact channels and marks one verified and primary", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    const address = email();
    const user = await admin.createUser({ primaryEmail: address, primaryEmailAuthEnabled: true });
    const other = await asServer(project, "POST", "/contact-channels", { user_id: user.id, type: "email", value: email(), used_for_auth: false });

    const channels = await admin.listUserContactChannels(user.id);
    expect(channels.map((c) => [c.value, c.isPrimary, c.isVerified])).toEqual([
      [address, true, false],
      [other.value, false, false],
    ]);

    const verified = await admin.updateUserContactChannel(user.id, other.id as string, { isVerified: true, isPrimary: true });
    expect(verified).toMatchObject({ value: other.value, isPrimary: true, isVerified: true });
    expect(await admin.getUserById(user.id)).toMatchObject({ primaryEmail: other.value, primaryEmailVerified: true });
  });

  it("lists a user's sessions, impersonation ones included, and revokes one", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    const user = await admin.createUser({ displayName: "Sessioned" });
    const own = await admin.createSession({ userId: user.id });
    const acting = await admin.createSession({ userId: user.id, isImpersonation: true });

    const sessions = await admin.listUserSessions(user.id);
    expect(sessions.map((s) => s.isImpersonation).sort()).toEqual([false, true]);
    const impersonation = sessions.find((s) => s.isImpersonation)!;

    await admin.revokeUserSession(user.id, impersonation.id);
    expect((await admin.listUserSessions(user.id)).map((s) => s.isImpersonation)).toEqual([false]);

    // The revoked session's refresh token no longer works; the other one still does.
    const refresh = (token: string) =>
      fetch(`${live.server().url}/api/v1/auth/sessions/current/refresh`, { method: "POST", headers: { ...project.headers("server"), "x-stack-refresh-token": token } });
    expect((await refresh(acting.refreshToken)).status).toBe(401);
    expect((await refresh(own.refreshToken)).status).toBe(200);
  });

  it("lists a user's teams, OAuth links and API keys, and grants and revokes a project permission", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    const user = await admin.createUser({ displayName: "Member" });
    expect(await admin.listServerTeams({ userId: user.id })).toEqual([]);
    expect(await admin.listUserOAuthLinks(user.id)).toEqual([]);
    // User API keys are off in a new project: listing says so, as the server does.
    await expect(admin.listUserApiKeys(user.id)).rejects.toThrow("User API keys are not enabled for this project.");
    await admin.updateAdminProject({ config: { allow_user_api_keys: true } });
    expect(await admin.listUserApiKeys(user.id)).toEqual([]);

    const team = await asServer(project, "POST", "/teams", { display_name: "Crew", creator_user_id: user.id });
    expect((await admin.listServerTeams({ userId: user.id })).map((t) => [t.id, t.displayName])).toEqual([[team.id, "Crew"]]);

    await admin.updateConfigOverride({ "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } });
    await asServer(project, "POST", "/oauth-providers", {
      user_id: user.id,
      provider_config_id: "github",
      account_id: "gh-42",
      email: "member@example.com",
      allow_sign_in: true,
      allow_connected_accounts: false,
    });
    expect(await admin.listUserOAuthLinks(user.id)).toMatchObject([{ providerId: "github", type: "github", accountId: "gh-42", email: "member@example.com", allowSignIn: true }]);

    await asServer(project, "POST", "/user-api-keys", { user_id: user.id, description: "CI", expires_at_millis: null });
    expect((await admin.listUserApiKeys(user.id)).map((k) => k.description)).toEqual(["CI"]);

    await asServer(project, "POST", "/project-permission-definitions", { id: "read_reports" }, "admin");
    await admin.grantUserProjectPermission(user.id, "read_reports");
    expect(await admin.listUserProjectPermissions(user.id)).toEqual(["read_reports"]);
    await admin.revokeUserProjectPermission(user.id, "read_reports");
    expect(await admin.listUserProjectPermissions(user.id)).toEqual([]);
  });

  it("unlinks one of a user's provider accounts, leaving the other", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    const user = await admin.createUser({ displayName: "Linked" });
    await admin.updateConfigOverride({
      "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
      "auth.oauth.providers.google": { type: "google", isShared: true, allowSignIn: true, allowConnectedAccounts: true },
    });
    const link = (provider: string, accountId: string) =>
      asServer(project, "POST", "/oauth-providers", { user_id: user.id, provider_config_id: provider, account_id: accountId, allow_sign_in: true, allow_connected_accounts: false });
    const github = await link("github", "gh-7");
    await link("google", "g-7");

    await admin.deleteUserOAuthLink(user.id, github.id as string);
    expect((await admin.listUserOAuthLinks(user.id)).map((l) => [l.providerId, l.accountId])).toEqual([["google", "g-7"]]);
    // The server has it gone too: unlinking it again is refused.
    await expect(admin.deleteUserOAuthLink(user.id, github.id as string)).rejects.toThrow(/not found/);
  });

  it("creates an API key for a user, shown whole once, that works until it is revoked", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    await admin.updateAdminProject({ config: { allow_user_api_keys: true } });
    const user = await admin.createUser({ displayName: "Keyed" });
    const expiresAt = new Date(Date.now() + 86_400_000);

    const created = await admin.createUserApiKey(user.id, { description: "Deploy bot", expiresAt });
    expect(created).toMatchObject({ description: "Deploy bot", manuallyRevokedAt: null });
    expect(created.expiresAt?.getTime()).toBe(expiresAt.getTime());
    expect(typeof created.value).toBe("string");
    const listed = await admin.listUserApiKeys(user.id);
    expect(listed.map((k) => [k.id, k.value.lastFour])).toEqual([[created.id, created.value.slice(-4)]]);

    // The whole value is a working key of this user, until the admin revokes it.
    const check = () =>
      fetch(`${live.server().url}/api/v1/user-api-keys/check`, {
        method: "POST",
        headers: { ...project.headers("server"), "content-type": "application/json" },
        body: JSON.stringify({ api_key: created.value }),
      });
    const valid = await check();
    expect(valid.status).toBe(200);
    expect(await valid.json()).toMatchObject({ id: created.id, user_id: user.id });

    const revoked = await admin.revokeUserApiKey(user.id, created.id);
    expect(revoked.manuallyRevokedAt).toBeInstanceOf(Date);
    expect((await admin.listUserApiKeys(user.id))[0]?.manuallyRevokedAt).toEqual(revoked.manuallyRevokedAt);
    const refused = await check();
    expect(refused.headers.get("x-stack-known-error")).toBe("API_KEY_REVOKED");
  });
});
