import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { stackSdk } from "./support/stack-sdk.js";
import { startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// Issue 13 §2, through the published Stack SDK (@stackframe/js@2.8.41), unchanged: anonymous users exist on
// every project, the internal one included.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** The internal project with the development keys the dev-mode server accepts. */
const INTERNAL: TestProject = {
  projectId: "internal",
  ...WELL_KNOWN_DEV_KEYS,
  headers: () => ({}),
};

describe("the published Stack SDK on the internal project", () => {
  it("signs up an anonymous user", async () => {
    const app = stackSdk(server, INTERNAL).client();
    expect(await app.getUser()).toBeNull();
    const user = await app.getUser({ or: "anonymous" });
    expect(user.isAnonymous).toBe(true);
    expect(user.primaryEmail).toBeNull();
    const { accessToken } = await user.getAuthJson();
    expect(decodeJwt(accessToken!)).toMatchObject({ project_id: "internal", is_anonymous: true, sub: user.id });
    // The same anonymous user on later calls, and a signed-out user to callers that do not ask for anonymous ones.
    expect((await app.getUser({ or: "anonymous" })).id).toBe(user.id);
    expect(await app.getUser()).toBeNull();

    const serverApp = stackSdk(server, INTERNAL).server();
    const seen = await serverApp.getUser(user.id);
    expect(seen?.isAnonymous).toBe(true);
  });
});
