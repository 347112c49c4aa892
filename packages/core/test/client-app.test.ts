import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { systemClock, type Clock } from "../src/clock.js";
import { PASSWORD, APP_ORIGIN, clientAppFor, createTestProject, email, serverAppFor, useLiveServer } from "./support/live-server.js";

const live = useLiveServer();

async function signedUpApp(options: Parameters<typeof clientAppFor>[2] = {}) {
  const project = await createTestProject(live.server());
  const client = clientAppFor(live.server(), project, options);
  const address = email();
  const result = await client.app.signUpWithCredential({ email: address, password: PASSWORD });
  return { ...client, project, address, result };
}

/** A clock whose time the test moves forward, for token expiry, while sleeping for real. */
function skewableClock() {
  let skew = 0;
  const clock: Clock = { ...systemClock, now: () => Date.now() + skew };
  return { clock, advance: (millis: number) => (skew += millis) };
}

describe("client app against a real server", () => {
  it("signs up, stores the session, goes to after-sign-up, and reads the new user", async () => {
    const { app, navigations, address, result } = await signedUpApp();
    expect(result.isNewUser).toBe(true);
    expect(navigations).toEqual([{ url: "/", replace: true }]);
    const user = await app.getUser();
    expect(user).toMatchObject({ id: result.userId, primaryEmail: address, primaryEmailVerified: false, hasPassword: true, displayName: null, isAnonymous: false });
    expect(user?.signedUpAt).toBeInstanceOf(Date);
    expect(app.$session.get()).toMatchObject({ status: "signed-in", userId: result.userId, isAnonymous: false });
  });

  it("signs in with email and password, returning to after_auth_return_to", async () => {
    const { project, address } = await signedUpApp();
    const { app, navigations } = clientAppFor(live.server(), project, { page: `${APP_ORIGIN}/handler/sign-in?after_auth_return_to=%2Fdashboard%3Ftab%3D2` });
    const result = await app.signInWithCredential({ email: address, password: PASSWORD });
    expect(result.isNewUser).toBe(false);
    expect(navigations).toEqual([{ url: "/dashboard?tab=2", replace: true }]);
    expect((await app.getUser())?.primaryEmail).toBe(address);
  });

  it("rejects a wrong password with the catalogue's typed error and stays signed out", async () => {
    const { project, address } = await signedUpApp();
    const { app, navigations } = clientAppFor(live.server(), project);
    const error = await app.signInWithCredential({ email: address, password: "wrong password" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    expect(navigations).toEqual([]);
    expect(await app.getUser()).toBeNull();
  });

  it("updates the user and the $user store follows", async () => {
    const { app } = await signedUpApp();
    const seen: Array<string | null | undefined> = [];
    const stop = app.$user.subscribe((state) => state.status === "ready" && seen.push(state.value?.displayName));
    await expect.poll(() => seen).toEqual([null]);
    const updated = await app.updateUser({ displayName: "Ada Lovelace", clientMetadata: { theme_choice: "dark" } });
    expect(updated).toMatchObject({ displayName: "Ada Lovelace", clientMetadata: { theme_choice: "dark" } });
    expect(seen).toEqual([null, "Ada Lovelace"]);
    stop();
  });

  it("refreshes an access token that is within 20 s of expiry through the OAuth token endpoint", async () => {
    const { clock, advance } = skewableClock();
    const { app } = await signedUpApp({ clock });
    const before = app.session.peek();
    // Access tokens live 600 s by default: 590 s later the token has 10 s left, under the 20 s freshness.
    advance(590_000);
    expect((await app.getUser())?.primaryEmail).toBeTruthy();
    const after = app.session.peek();
    expect(after.refreshToken).toBe(before.refreshToken);
    expect(after.accessToken).not.toBe(before.accessToken);
  });

  it("signs out: ends the session on the server, clears tokens and goes to after-sign-out", async () => {
    const { app, navigations, project } = await signedUpApp({ urls: { afterSignOut: "/bye" } });
    const { refreshToken, accessToken } = app.session.peek();
    await app.signOut();
    expect(app.session.peek()).toEqual({ accessToken: null, refreshToken: null });
    expect(navigations.at(-1)).toEqual({ url: "/bye", replace: true });
    expect(await app.getUser()).toBeNull();
    // The old refresh token no longer works on the server.
    const reused = clientAppFor(live.server(), project);
    reused.app.session.signIn({ accessToken: accessToken!, refreshToken: refreshToken! });
    await reused.app.session.refresh(refreshToken!);
    expect(reused.app.session.peek()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("signs out locally even when the server says the session is already gone", async () => {
    const { app, navigations, project } = await signedUpApp();
    const tokens = app.session.peek();
    const elsewhere = clientAppFor(live.server(), project);
    elsewhere.app.session.signIn({ accessToken: tokens.accessToken!, refreshToken: tokens.refreshToken! });
    await elsewhere.app.signOut();
    await app.signOut({ redirectUrl: "/signed-out" });
    expect(app.session.peek()).toEqual({ accessToken: null, refreshToken: null });
    expect(navigations.at(-1)).toEqual({ url: "/signed-out", replace: true });
  });

  it("becomes signed out when a refresh is rejected because the session was revoked", async () => {
    const { clock, advance } = skewableClock();
    const { app, project } = await signedUpApp({ clock });
    const tokens = app.session.peek();
    const elsewhere = clientAppFor(live.server(), project);
    elsewhere.app.session.signIn({ accessToken: tokens.accessToken!, refreshToken: tokens.refreshToken! });
    await elsewhere.app.signOut();
    advance(590_000);
    expect(await app.getUser()).toBeNull();
    expect(app.session.peek()).toEqual({ accessToken: null, refreshToken: null });
    expect(app.$session.get()).toEqual({ status: "signed-out" });
  });

  it("handles a missing user as the or option says", async () => {
    const project = await createTestProject(live.server());
    const { app, navigations } = clientAppFor(live.server(), project, { page: `${APP_ORIGIN}/account?tab=1` });
    expect(await app.getUser()).toBeNull();
    expect(await app.getUser({ or: "return-null" })).toBeNull();
    await expect(app.getUser({ or: "throw" })).rejects.toThrow("User is not signed in");
    void app.getUser({ or: "redirect" });
    await expect.poll(() => navigations).toEqual([{ url: "/handler/sign-in?after_auth_return_to=%2Faccount%3Ftab%3D1", replace: true }]);
  });

  it("signs up one anonymous user for concurrent anonymous lookups, who counts as signed out otherwise", async () => {
    const project = await createTestProject(live.server());
    const { app } = clientAppFor(live.server(), project);
    const [a, b] = await Promise.all([app.getUser({ or: "anonymous" }), app.getUser({ or: "anonymous" })]);
    expect(a.isAnonymous).toBe(true);
    expect(b.id).toBe(a.id);
    expect(await app.getUser()).toBeNull();
    const { items } = await serverAppFor(live.server(), project).listUsers({ includeAnonymous: true });
    expect(items.map((u) => u.id)).toEqual([a.id]);
  });

  it("refuses to redirect to an untrusted absolute URL", async () => {
    const { app } = await signedUpApp();
    await expect(app.signOut({ redirectUrl: "https://evil.example/steal" })).rejects.toThrow("Redirect URL https://evil.example/steal is not trusted; should be relative.");
  });

  it("reads the project's public configuration into $project", async () => {
    const project = await createTestProject(live.server(), "Public name");
    const { app } = clientAppFor(live.server(), project);
    const stop = app.$project.listen(() => {});
    await expect.poll(() => app.$project.get().status).toBe("ready");
    const state = app.$project.get();
    expect(state.status === "ready" && state.value).toMatchObject({ id: project.projectId, displayName: "Public name", config: { signUpEnabled: true, credentialEnabled: true } });
    stop();
  });

  it("changes the password and lists and adds contact channels", async () => {
    const { app, address, project } = await signedUpApp();
    await app.updatePassword({ oldPassword: PASSWORD, newPassword: "another long password" });
    const other = clientAppFor(live.server(), project).app;
    await expect(other.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true })).rejects.toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    await other.signInWithCredential({ email: address, password: "another long password", noRedirect: true });

    expect((await app.listContactChannels()).map((c) => [c.value, c.isPrimary, c.usedForAuth])).toEqual([[address, true, true]]);
    const second = email();
    const added = await app.addContactChannel({ value: second, usedForAuth: false });
    expect(added).toMatchObject({ value: second, type: "email", isVerified: false, isPrimary: false, usedForAuth: false });
    expect(await app.listContactChannels()).toHaveLength(2);
  });

  it("keeps $user and $session in step with sign-in and sign-out", async () => {
    const { project, address } = await signedUpApp();
    const { app } = clientAppFor(live.server(), project);
    const users: Array<string | null> = [];
    const stopUser = app.$user.subscribe((state) => state.status === "ready" && users.push(state.value?.primaryEmail ?? null));
    const sessions: string[] = [];
    const stopSession = app.$session.subscribe((state) => sessions.push(state.status));
    await expect.poll(() => users).toEqual([null]);
    await app.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true });
    expect(users.at(-1)).toBe(address);
    await app.signOut();
    expect(users.at(-1)).toBeNull();
    expect(sessions).toEqual(["signed-out", "signed-in", "signed-out"]);
    stopUser();
    stopSession();
  });
});
