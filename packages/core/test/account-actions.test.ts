import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { api } from "../../server/test/support/api.js";
import { codeIn, emailProject, linkIn, server, smtp, TRUSTED_ORIGIN, useServerAndSmtpForFile } from "../../server/test/support/email-flow-fixture.js";
import type { CachedStore } from "../src/stores/cached-store.js";
import { HttpStatusError } from "../src/http/errors.js";
import { PASSWORD, clientAppFor, email } from "./support/live-server.js";

/**
 * The account-settings actions of the client app against a real server and a real SMTP capture: each test
 * checks what the person at the settings page would see change (their primary email, their sessions, a
 * key that stops working), not the requests made.
 */
useServerAndSmtpForFile();

const SETTINGS_PAGE = `${TRUSTED_ORIGIN}/handler/account-settings`;

/** A new project (mail to the capture) and a person signed up on it, on the account-settings page. */
async function signedUp(override: Record<string, unknown> = {}) {
  const project = await emailProject(override);
  const client = clientAppFor(server, project, { page: SETTINGS_PAGE });
  const address = email();
  const { userId } = await client.app.signUpWithCredential({ email: address, password: PASSWORD, noRedirect: true });
  await smtp.nextMessage(address); // the sign-up's verification mail, so later reads get later mail
  return { ...client, project, address, userId };
}

/** The store's value once loaded, kept subscribed so refreshes after actions land in it. */
async function watch<T>(store: CachedStore<T>) {
  const stop = store.subscribe(() => {});
  await expect.poll(() => store.get().status).toBe("ready");
  const value = () => {
    const state = store.get();
    if (state.status !== "ready") throw new Error(`store is ${state.status}`);
    return state.value;
  };
  return { value, stop };
}

describe("contact channels", () => {
  it("mails a verification link for an added address whose code verifies it, then refuses a second mail", async () => {
    const { app } = await signedUp();
    const second = email();
    const channel = await app.addContactChannel({ value: second, usedForAuth: false });
    expect(channel.isVerified).toBe(false);

    await app.sendContactChannelVerificationEmail(channel.id);
    const mail = await smtp.nextMessage(second);
    const link = linkIn(mail);
    // The default callback is the app's email-verification page, made absolute from the current page.
    expect(link.origin + link.pathname).toBe(`${TRUSTED_ORIGIN}/handler/email-verification`);
    await app.verifyEmail(codeIn(mail));

    const listed = await app.listContactChannels();
    expect(listed.find((c) => c.id === channel.id)?.isVerified).toBe(true);
    await expect(app.sendContactChannelVerificationEmail(channel.id)).rejects.toBeInstanceOf(KnownErrors.EmailAlreadyVerified);
  });

  it("makes another address primary, which becomes the user's primary email, and deletes the old one", async () => {
    const { app, address } = await signedUp();
    const user = await watch(app.$user);
    expect(user.value()?.primaryEmail).toBe(address);
    const old = (await app.listContactChannels()).find((c) => c.value === address)!;
    const second = email();
    const channel = await app.addContactChannel({ value: second, usedForAuth: true });

    const updated = await app.updateContactChannel(channel.id, { isPrimary: true });
    expect(updated).toMatchObject({ value: second, isPrimary: true, usedForAuth: true });
    expect(user.value()?.primaryEmail).toBe(second);

    await app.deleteContactChannel(old.id);
    expect((await app.listContactChannels()).map((c) => c.value)).toEqual([second]);
    user.stop();
  });

  it("changes an address's value and whether it signs in", async () => {
    const { app } = await signedUp();
    const channel = await app.addContactChannel({ value: email(), usedForAuth: true });
    const renamed = email();
    await app.updateContactChannel(channel.id, { value: renamed, usedForAuth: false });
    expect((await app.listContactChannels()).find((c) => c.id === channel.id)).toMatchObject({ value: renamed, usedForAuth: false });
  });
});

describe("sessions", () => {
  it("lists the user's sessions, marks this one, and revokes another so its refresh fails", async () => {
    const { app, project, address } = await signedUp();
    const { app: otherDevice } = clientAppFor(server, project, { page: SETTINGS_PAGE });
    await otherDevice.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true });

    const sessions = await app.listSessions();
    expect(sessions).toHaveLength(2);
    const current = sessions.filter((s) => s.isCurrentSession);
    expect(current).toHaveLength(1);
    for (const session of sessions) {
      expect(session.createdAt).toBeInstanceOf(Date);
      expect(session.isImpersonation).toBe(false);
    }
    const other = sessions.find((s) => !s.isCurrentSession)!;

    await app.revokeSession(other.id);
    expect((await app.listSessions()).map((s) => s.id)).toEqual([current[0]!.id]);
    // The other device finds itself signed out the next time it refreshes its access token.
    expect(await otherDevice.session.refresh(otherDevice.session.peek().refreshToken!)).toBeNull();
    expect(await otherDevice.getUser()).toBeNull();
    expect(await app.getUser()).not.toBeNull();
  });

  it("refuses to revoke the current session with the catalogue's typed error", async () => {
    const { app } = await signedUp();
    const [current] = await app.listSessions();
    await expect(app.revokeSession(current!.id)).rejects.toBeInstanceOf(KnownErrors.CannotDeleteCurrentSession);
  });
});

describe("deleting the account", () => {
  it("deletes the user, signs out here, and the credentials no longer sign in", async () => {
    const { app, project, address } = await signedUp({ "users.allowClientUserDeletion": true });
    const user = await watch(app.$user);
    expect(user.value()).not.toBeNull();

    await app.deleteUser();
    expect(user.value()).toBeNull();
    expect(app.$session.get()).toMatchObject({ status: "signed-out" });

    const { app: again } = clientAppFor(server, project);
    await expect(again.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true })).rejects.toBeInstanceOf(KnownErrors.EmailPasswordMismatch);
    user.stop();
  });

  it("keeps the account when the project does not let users delete themselves", async () => {
    const { app, userId } = await signedUp();
    const error = await app.deleteUser().catch((e: unknown) => e);
    // The protocol has no known error for this: a plain 400.
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(400);
    expect((await app.getUser())?.id).toBe(userId);
  });
});

describe("notification preferences", () => {
  it("lists the categories and turns marketing mail off, but not transactional mail", async () => {
    const { app } = await signedUp();
    const categories = await app.listNotificationCategories();
    expect(categories.map(({ name, enabled, canDisable }) => ({ name, enabled, canDisable }))).toEqual([
      { name: "Transactional", enabled: true, canDisable: false },
      { name: "Marketing", enabled: true, canDisable: true },
    ]);
    const marketing = categories.find((c) => c.name === "Marketing")!;
    const transactional = categories.find((c) => c.name === "Transactional")!;

    await app.setNotificationCategoryEnabled(marketing.id, false);
    expect((await app.listNotificationCategories()).find((c) => c.id === marketing.id)?.enabled).toBe(false);

    await expect(app.setNotificationCategoryEnabled(transactional.id, false)).rejects.toBeInstanceOf(HttpStatusError);
    expect((await app.listNotificationCategories()).find((c) => c.id === transactional.id)?.enabled).toBe(true);
  });
});

describe("user API keys", () => {
  it("creates a key shown whole once, lists it by its last four characters, and revokes it so it stops working", async () => {
    const { app, project } = await signedUp({ "apiKeys.enabled.user": true });
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await app.createApiKey({ description: "CI deploys", expiresAt });
    expect(typeof created.value).toBe("string");
    expect(created.expiresAt?.getTime()).toBe(expiresAt.getTime());
    const check = () => api(server.url, "/user-api-keys/check", { method: "POST", headers: project.headers("server"), body: { api_key: created.value } });
    expect((await check()).status).toBe(200);

    const [listed] = await app.listApiKeys();
    expect(listed).toMatchObject({ id: created.id, description: "CI deploys", value: { lastFour: created.value.slice(-4) }, manuallyRevokedAt: null });

    await app.revokeApiKey(created.id);
    expect((await app.listApiKeys())[0]?.manuallyRevokedAt).toBeInstanceOf(Date);
    expect((await check()).body.code).toBe("API_KEY_REVOKED");
  });

  it("creates a key that never expires", async () => {
    const { app } = await signedUp({ "apiKeys.enabled.user": true });
    const created = await app.createApiKey({ description: "forever", expiresAt: null });
    expect(created.expiresAt).toBeNull();
    expect((await app.listApiKeys())[0]?.expiresAt).toBeNull();
  });
});
