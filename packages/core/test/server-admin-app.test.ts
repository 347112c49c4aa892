import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../../server/src/env.js";
import { createAdminApp } from "../src/apps/admin-app.js";
import { createClientApp } from "../src/apps/client-app.js";
import { requestTokenStore } from "../src/token-stores/request-token-store.js";
import { memoryTokenStore } from "../src/token-stores/memory-token-store.js";
import { PASSWORD, adminAppFor, clientAppFor, createTestProject, email, serverAppFor, useLiveServer } from "./support/live-server.js";

const live = useLiveServer();

describe("server app against a real server", () => {
  it("creates, lists, reads, updates and deletes users", async () => {
    const project = await createTestProject(live.server());
    const app = serverAppFor(live.server(), project);
    const address = email();
    const created = await app.createUser({ primaryEmail: address, primaryEmailAuthEnabled: true, password: PASSWORD, displayName: "Grace", serverMetadata: { plan: "pro" } });
    expect(created).toMatchObject({ primaryEmail: address, displayName: "Grace", hasPassword: true, serverMetadata: { plan: "pro" } });
    expect(created.lastActiveAt).toBeInstanceOf(Date);
    const other = await app.createUser({ displayName: "Linus" });

    const { items, nextCursor } = await app.listUsers();
    expect(items.map((u) => u.id).sort()).toEqual([created.id, other.id].sort());
    expect(nextCursor).toBeNull();
    const firstPage = await app.listUsers({ limit: 1, orderBy: "signedUpAt" });
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.nextCursor).not.toBeNull();
    expect((await app.listUsers({ query: "grace" })).items.map((u) => u.id)).toEqual([created.id]);

    expect((await app.getUserById(created.id))?.displayName).toBe("Grace");
    expect((await app.updateUserById(created.id, { displayName: "Grace Hopper", clientReadOnlyMetadata: { level: 3 } })).clientReadOnlyMetadata).toEqual({ level: 3 });

    // The user signs in with the password the server set.
    await clientAppFor(live.server(), project).app.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true });

    await app.deleteUser(created.id);
    expect(await app.getUserById(created.id)).toBeNull();
    await expect(app.deleteUser(created.id)).rejects.toBeInstanceOf(KnownErrors.UserNotFound);
  });

  it("creates a session for a user that a client can use", async () => {
    const project = await createTestProject(live.server());
    const server = serverAppFor(live.server(), project);
    const user = await server.createUser({ displayName: "Impersonated" });
    const tokens = await server.createSession({ userId: user.id, isImpersonation: true });
    const { app } = clientAppFor(live.server(), project, { tokenStore: memoryTokenStore(tokens) });
    expect((await app.getUser())?.id).toBe(user.id);
  });

  it("reads the user of the request it answers from the x-stack-auth header or cookies", async () => {
    const project = await createTestProject(live.server());
    const { app: client } = clientAppFor(live.server(), project);
    const { userId } = await client.signUpWithCredential({ email: email(), password: PASSWORD, noRedirect: true });
    const tokens = client.session.peek();

    const viaHeader = new Request("https://app.example/page", { headers: { "x-stack-auth": JSON.stringify(tokens) } });
    const user = await serverAppFor(live.server(), project, requestTokenStore(project.projectId, viaHeader)).getServerUser();
    expect(user).toMatchObject({ id: userId, serverMetadata: null });

    // Only a refresh token in the cookies: the server app refreshes through /auth/sessions/current/refresh.
    const viaCookie = new Request("https://app.example/page", { headers: { cookie: `stack-refresh-${project.projectId}=${tokens.refreshToken}` } });
    const cookieApp = serverAppFor(live.server(), project, viaCookie);
    expect((await cookieApp.getServerUser())?.id).toBe(userId);
    expect(cookieApp.session.peek().accessToken).toBeTruthy();

    expect(await serverAppFor(live.server(), project, new Request("https://app.example/")).getServerUser()).toBeNull();
  });
});

describe("admin app against a real server", () => {
  it("reads and updates the project", async () => {
    const project = await createTestProject(live.server(), "Admin view");
    const admin = adminAppFor(live.server(), project);
    const read = await admin.getAdminProject();
    expect(read).toMatchObject({ id: project.projectId, displayName: "Admin view", isProductionMode: false });
    expect(read.createdAt).toBeInstanceOf(Date);
    expect(read.config.sign_up_enabled).toBe(true);

    const updated = await admin.updateAdminProject({ displayName: "Renamed", description: "About it", config: { sign_up_enabled: false } });
    expect(updated).toMatchObject({ displayName: "Renamed", description: "About it" });
    expect(updated.config.sign_up_enabled).toBe(false);
    // The change shows in the public view too, and sign-up is refused with the catalogue's error.
    const { app } = clientAppFor(live.server(), project);
    expect((await app.getProject()).config.signUpEnabled).toBe(false);
    await expect(app.signUpWithCredential({ email: email(), password: PASSWORD })).rejects.toBeInstanceOf(KnownErrors.SignUpNotEnabled);
  });

  it("lists, creates and revokes key sets; a revoked key stops working", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    const before = await admin.listInternalApiKeys();
    const created = await admin.createInternalApiKey({
      description: "ci",
      expiresAt: new Date(Date.now() + 86_400_000),
      hasPublishableClientKey: false,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(created.secretServerKey).toEqual(expect.any(String));
    expect(created.publishableClientKey).toBeNull();
    const listed = await admin.listInternalApiKeys();
    expect(listed).toHaveLength(before.length + 1);
    expect(listed.find((k) => k.id === created.id)?.secretServerKey).toEqual({ lastFour: created.secretServerKey!.slice(-4) });

    const withNewKey = serverAppFor(live.server(), { ...project, secretServerKey: created.secretServerKey! });
    await withNewKey.listUsers();
    const revoked = await admin.revokeInternalApiKey(created.id);
    expect(revoked.manuallyRevokedAt).toBeInstanceOf(Date);
    await expect(withNewKey.listUsers()).rejects.toBeInstanceOf(KnownErrors.InvalidSecretServerKey);
  });
});

describe("admin app of a project owner (internal-project session)", () => {
  it("administers a project its user's team owns, through the owner's session", async () => {
    const dashboard = createClientApp({ projectId: "internal", publishableClientKey: WELL_KNOWN_DEV_KEYS.publishableClientKey, baseUrl: live.server().url, tokenStore: "memory" });
    await dashboard.signUpWithCredential({ email: email(), password: PASSWORD, noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" });

    // Internal-project users get a personal team; $teams shows it.
    const stop = dashboard.$teams.listen(() => {});
    await expect.poll(() => dashboard.$teams.get().status).toBe("ready");
    const teams = dashboard.$teams.get();
    const [personalTeam] = teams.status === "ready" ? teams.value : [];
    expect(personalTeam?.id).toEqual(expect.any(String));
    stop();

    // Creating projects is a dashboard call the core does not wrap; made by hand with the owner's token.
    const { accessToken } = (await dashboard.session.getTokens(20_000))!;
    const response = await fetch(`${live.server().url}/api/v1/internal/projects`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": "internal",
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": WELL_KNOWN_DEV_KEYS.publishableClientKey,
        "x-stack-access-token": accessToken!,
      },
      body: JSON.stringify({ display_name: "Owned", owner_team_id: personalTeam!.id }),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: string };

    const admin = createAdminApp({ projectId: created.id, projectOwnerSession: dashboard.session, baseUrl: live.server().url, tokenStore: "memory" });
    expect(await admin.getAdminProject()).toMatchObject({ id: created.id, displayName: "Owned", ownerTeamId: personalTeam!.id });
    const keys = await admin.createInternalApiKey({ description: "first", expiresAt: new Date(Date.now() + 3_600_000), hasPublishableClientKey: true, hasSecretServerKey: false, hasSuperSecretAdminKey: false });
    expect(keys.publishableClientKey).toEqual(expect.any(String));

    // Once the owner has signed out, the same call is refused.
    await dashboard.signOut();
    await expect(admin.getAdminProject()).rejects.toBeInstanceOf(KnownErrors.AdminAuthenticationRequired);
  });
});
