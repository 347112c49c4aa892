import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../../server/src/services/projects.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestServer } from "../../server/test/support/test-server.js";
import { dataUrl, gif, png } from "../../server/test/support/tiny-images.js";
import { PASSWORD, clientAppFor, email } from "./support/live-server.js";

/**
 * Avatars as the elements upload them (a data URL from the resized picture) through the client app: the
 * server keeps the image and answers with the URL it serves it at, which the app shows and may send back.
 */
let server: TestServer;
beforeAll(async () => {
  // The served URLs start with the server's public URL: make that where it listens, so they can be fetched.
  server = await startTestServer(await reachablePublicUrl());
});
afterAll(async () => {
  await server?.close();
});

async function signedUp(configOverride: Record<string, unknown> = {}) {
  const project = await createTestProject(server, "Profile images", { configOverride: { ...NEW_PROJECT_CONFIG_OVERRIDE, ...configOverride } });
  const { app } = clientAppFor(server, project);
  await app.signUpWithCredential({ email: email(), password: PASSWORD, noRedirect: true });
  return app;
}

async function served(url: string | null | undefined) {
  expect(url).toMatch(new RegExp(`^${server.env.publicUrl}/api/v1/profile-images/[0-9a-f-]{36}$`));
  const response = await fetch(url!);
  return { type: response.headers.get("content-type"), bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe("profile images through the client app", () => {
  it("uploads an avatar, reads it back as a served URL, keeps it when that URL is written back, and removes it", async () => {
    const app = await signedUp();
    const uploaded = await app.updateUser({ profileImageUrl: dataUrl("png", png()) });
    expect(await served(uploaded.profileImageUrl)).toEqual({ type: "image/png", bytes: png() });
    expect((await app.getUser())?.profileImageUrl).toBe(uploaded.profileImageUrl);

    const rewritten = await app.updateUser({ displayName: "Ada", profileImageUrl: uploaded.profileImageUrl });
    expect(rewritten).toMatchObject({ displayName: "Ada", profileImageUrl: uploaded.profileImageUrl });

    expect((await app.updateUser({ profileImageUrl: null })).profileImageUrl).toBeNull();
  });

  it("refuses a picture given by address, as clients may only upload", async () => {
    const app = await signedUp();
    await expect(app.updateUser({ profileImageUrl: "https://example.com/me.png" })).rejects.toThrow("Invalid profile image URL");
    expect((await app.getUser())?.profileImageUrl).toBeNull();
  });

  it("uploads a team image and keeps it when the team is renamed with the URL read back", async () => {
    const app = await signedUp({ "teams.allowClientTeamCreation": true });
    const team = await app.createTeam({ displayName: "Engines", profileImageUrl: dataUrl("gif", gif()) });
    expect(await served(team.profileImageUrl)).toEqual({ type: "image/gif", bytes: gif() });
    const renamed = await app.updateTeam(team.id, { displayName: "Difference Engines", profileImageUrl: team.profileImageUrl });
    expect(renamed).toMatchObject({ displayName: "Difference Engines", profileImageUrl: team.profileImageUrl });
  });
});
