import { describe, expect, it } from "vitest";
import { deviceTokenStore } from "../src/token-stores/device-token-store.js";
import { PASSWORD, clientAppFor, createTestProject, email, useLiveServer } from "./support/live-server.js";

// Issue 30 §3: the server hands a device token to a browser that signs in (x-latchkey-device-token), and counts
// password sign-ins that show it apart from the account's, so an attacker's wrong passwords do not lock the owner
// out. The API is called without cookies, so the client library keeps the token and sends it.
const live = useLiveServer();

/** The platform fetch, recording the status of every answer. */
function recordingFetch() {
  const statuses: number[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { fetcher, statuses };
}

describe("password sign-in with a device token", () => {
  it("gets in at once while an attacker's failures block the account; a browser without the token waits", async () => {
    const project = await createTestProject(live.server());
    const address = email();
    const owner = recordingFetch();
    const { app } = clientAppFor(live.server(), project, { fetch: owner.fetcher });
    await app.signUpWithCredential({ email: address, password: PASSWORD, noRedirect: true });
    await app.signOut();

    for (let i = 0; i < 5; i++) {
      const attempt = await fetch(`${live.server().url}/api/v1/auth/password/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-stack-project-id": project.projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": project.publishableClientKey },
        body: JSON.stringify({ email: address, password: `attacker ${i}` }),
      });
      expect(attempt.status).toBe(400);
    }

    owner.statuses.length = 0;
    await app.signInWithCredential({ email: address.toUpperCase(), password: PASSWORD, noRedirect: true });
    expect(owner.statuses).toEqual([200]);

    // Another browser is refused first, and signs in once the client has waited out the block.
    const stranger = recordingFetch();
    const other = clientAppFor(live.server(), project, { fetch: stranger.fetcher });
    await other.app.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true });
    expect(stranger.statuses).toEqual([429, 200]);
  });
});

describe("deviceTokenStore", () => {
  function fakeStorage() {
    const items = new Map<string, string>();
    return { items, getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
  }

  it("keeps a token per account and project in the storage, for the ten accounts signed in to last", () => {
    const storage = fakeStorage();
    const store = deviceTokenStore("project-a", storage);
    for (let i = 0; i < 12; i++) store.set(`User${i}@Example.com`, `token ${i}`);
    store.set("user3@example.com", "token 3 renewed");
    const reopened = deviceTokenStore("project-a", storage);
    expect(reopened.get("USER3@example.com")).toBe("token 3 renewed");
    expect(reopened.get("user11@example.com")).toBe("token 11");
    expect(reopened.get("user2@example.com")).toBe("token 2");
    expect(reopened.get("user1@example.com")).toBeNull();
    expect(reopened.get("user0@example.com")).toBeNull();
    expect(deviceTokenStore("project-b", storage).get("user11@example.com")).toBeNull();
  });

  it("falls back to memory when the storage refuses or holds something else", () => {
    const refusing = {
      getItem: () => "not json",
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    const store = deviceTokenStore("project-a", refusing);
    expect(store.get("a@example.com")).toBeNull();
    expect(() => store.set("a@example.com", "token")).not.toThrow();
    expect(store.get("a@example.com")).toBe("token");
    const memory = deviceTokenStore("project-a", null);
    memory.set("a@example.com", "token");
    expect(memory.get("A@example.com")).toBe("token");
  });
});
