import { describe, expect, it } from "vitest";
import { createAdminApp } from "../src/apps/admin-app.js";
import { createClientApp } from "../src/apps/client-app.js";
import { signedUpOwner, useLiveServer } from "./support/live-server.js";

const live = useLiveServer();
const HUNDRED_YEARS = 100 * 365 * 86_400_000;

describe("an owner's admin app and the project's publishable keys", () => {
  it("reads a publishable key again after it was made, never the secret key beside it, and the key works", async () => {
    const { app, teamId } = await signedUpOwner(live.server());
    const project = await app.createProject({ displayName: "Get started", description: null, ownerTeamId: teamId });
    const admin = createAdminApp({ projectId: project.id, projectOwnerSession: app.session, baseUrl: live.server().url, tokenStore: "memory" });
    expect(await admin.listPublishableClientKeys()).toEqual([]);

    const made = await admin.createInternalApiKey({
      description: "Get started",
      expiresAt: new Date(Date.now() + HUNDRED_YEARS),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    const keys = await admin.listPublishableClientKeys();
    expect(keys).toEqual([{ keySetId: made.id, description: "Get started", publishableClientKey: made.publishableClientKey, createdAt: made.createdAt, expiresAt: made.expiresAt }]);
    expect(JSON.stringify(keys)).not.toContain(made.secretServerKey);

    // An app of the project with the key read back signs a person up.
    const client = createClientApp({ projectId: project.id, publishableClientKey: keys[0]!.publishableClientKey, baseUrl: live.server().url, tokenStore: "memory" });
    await client.signUpWithCredential({ email: `first-${crypto.randomUUID()}@example.com`, password: "correct horse battery", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" });
    expect(await client.getUser()).not.toBeNull();

    // Revoked, it is no longer offered.
    await admin.revokeInternalApiKey(made.id);
    expect(await admin.listPublishableClientKeys()).toEqual([]);
  });
});
