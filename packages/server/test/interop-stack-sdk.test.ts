import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";

// The published Stack Auth SDK (@stackframe/js@2.8.41), unchanged, against Latchkey over a real socket.
// Access tokens live 26 s here: the SDK refreshes tokens valid for less than 20 s (and refuses tokens
// issued for less), so after 6 s it refreshes through the OAuth token endpoint.
let server: TestServer;
let project: TestProject;
beforeAll(async () => {
  server = await startTestServer({ LATCHKEY_ACCESS_TOKEN_LIFETIME_SECONDS: "26" });
  project = await createTestProject(server, "Interop");
});
afterAll(async () => {
  await server?.close();
});

const verificationCallbackUrl = "http://localhost:3000/handler/email-verification";
const clientApp = () => stackSdk(server, project).client();
const serverApp = () => stackSdk(server, project).server();

describe("the published Stack SDK as a client", () => {
  it("signs up, reads and updates the user, refreshes, and signs out", async () => {
    const app = clientApp();
    const email = `sdk-${crypto.randomUUID()}@example.com`;
    const signUp = await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true, verificationCallbackUrl });
    expect(signUp.status).toBe("ok");

    const user = await app.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe(email);
    expect(user.hasPassword).toBe(true);
    expect(user.isAnonymous).toBe(false);

    await user.update({ displayName: "Ada Lovelace", clientMetadata: { theme: "dark" } });
    const updated = await app.getUser({ or: "throw" });
    expect(updated.displayName).toBe("Ada Lovelace");
    expect(updated.clientMetadata).toEqual({ theme: "dark" });

    const before = await updated.getAuthJson();
    await new Promise((r) => setTimeout(r, 6500));
    const after = await (await app.getUser({ or: "throw" })).getAuthJson();
    expect(after.accessToken).toBeTruthy();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).toBe(before.refreshToken);

    await updated.signOut();
    expect(await app.getUser()).toBeNull();
    const reuse = await api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": before.refreshToken! } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("signs in with credentials and reports a wrong password as the protocol's error", async () => {
    const email = `sdk-${crypto.randomUUID()}@example.com`;
    expect((await clientApp().signUpWithCredential({ email, password: "first password", noRedirect: true, verificationCallbackUrl })).status).toBe("ok");

    const app = clientApp();
    const wrong = await app.signInWithCredential({ email, password: "not the password", noRedirect: true });
    expect(wrong.status).toBe("error");
    expect(wrong.status === "error" && wrong.error.errorCode).toBe("EMAIL_PASSWORD_MISMATCH");

    const right = await app.signInWithCredential({ email, password: "first password", noRedirect: true });
    expect(right.status).toBe("ok");
    expect((await app.getUser({ or: "throw" })).primaryEmail).toBe(email);
  });
});

describe("the published Stack SDK as a server", () => {
  it("creates, lists, reads and deletes users", async () => {
    const app = serverApp();
    const email = `server-${crypto.randomUUID()}@example.com`;
    const created = await app.createUser({ primaryEmail: email, password: "server-set password", primaryEmailAuthEnabled: true, displayName: "Made by server" });
    expect(created.primaryEmail).toBe(email);

    const listed = await app.listUsers();
    expect(listed.map((u) => u.id)).toContain(created.id);

    const read = await app.getUser(created.id);
    expect(read?.displayName).toBe("Made by server");
    await read!.update({ serverMetadata: { plan: "pro" } });
    expect((await app.getUser(created.id))?.serverMetadata).toEqual({ plan: "pro" });

    await read!.delete();
    expect(await app.getUser(created.id)).toBeNull();
  });
});

describe("the published Stack SDK as an admin", () => {
  it("reads the project", async () => {
    const app = stackSdk(server, project).admin();
    const read = await app.getProject();
    expect(read.id).toBe(project.projectId);
    expect(read.displayName).toBe("Interop");
    expect(read.config.credentialEnabled).toBe(true);
  });
});
