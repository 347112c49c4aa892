import { KnownError, KnownErrors } from "@latchkey/protocol/errors";
import { afterEach, describe, expect, it } from "vitest";
import { HttpStatusError, NetworkError, OfflineError, ProtocolViolationError } from "../src/http/errors.js";
import { HttpClient, type HttpClientOptions } from "../src/http/http-client.js";
import { startFlakyServer, type Behaviour, type FlakyServer } from "./support/flaky-server.js";
import { ManualClock } from "./support/manual-clock.js";

let server: FlakyServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(script: Behaviour[], options: Partial<HttpClientOptions> = {}) {
  server = await startFlakyServer(script);
  const clock = new ManualClock();
  // random() = 0.5 makes the jitter factor exactly 1, so the delays are the bare backoff.
  const http = new HttpClient({ baseUrl: server.baseUrl, projectId: "p1", publishableClientKey: "pck", clock, random: () => 0.5, isOnline: () => true, ...options });
  return { http, clock, server };
}

const ok = { status: 200, body: { ok: true } };

describe("HTTP retry policy (SPEC §7, §9)", () => {
  it("retries network failures of a GET with 1 s, 2 s, … backoff and returns the eventual answer", async () => {
    const { http, clock, server } = await clientFor(["drop", "drop", ok]);
    expect(await http.json({ method: "GET", path: "/projects/current", accessType: "client" })).toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000, 2000]);
  });

  it("gives up after 5 attempts with a network error, having waited 1+2+4+8 s", async () => {
    const { http, clock, server } = await clientFor(["drop"]);
    const error = await http.json({ method: "GET", path: "/users/me", accessType: "client" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(OfflineError);
    expect((error as NetworkError).attempts).toBe(5);
    expect(server.requests).toHaveLength(5);
    expect(clock.sleeps).toEqual([1000, 2000, 4000, 8000]);
  });

  it("spreads each delay by a jitter factor between 0.5 and 1.5", async () => {
    const low = await clientFor(["drop", "drop", ok], { random: () => 0 });
    await low.http.json({ method: "GET", path: "/x", accessType: "client" });
    expect(low.clock.sleeps).toEqual([500, 1000]);
    await low.server.close();
    const high = await clientFor(["drop", ok], { random: () => 0.999 });
    await high.http.json({ method: "GET", path: "/x", accessType: "client" });
    expect(high.clock.sleeps[0]).toBeCloseTo(1499, 0);
  });

  it("does not retry a POST whose connection failed (it may have been applied)", async () => {
    const { http, clock, server } = await clientFor(["drop", ok]);
    await expect(http.json({ method: "POST", path: "/auth/password/sign-in", body: {}, accessType: "client" })).rejects.toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("reports being offline when the platform says so", async () => {
    const { http } = await clientFor(["drop"], { isOnline: () => false });
    const error = await http.json({ method: "GET", path: "/users/me", accessType: "client" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OfflineError);
    expect((error as Error).message).toContain("You are offline");
  });

  it("waits Retry-After seconds after a 429, then retries", async () => {
    const { http, clock, server } = await clientFor([{ status: 429, headers: { "retry-after": "3" }, body: "slow down" }, ok]);
    expect(await http.json({ method: "POST", path: "/auth/password/sign-in", body: {}, accessType: "client" })).toEqual({ ok: true });
    expect(clock.sleeps).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a 508 loop detection but throws other failure statuses at once", async () => {
    const loop = await clientFor([{ status: 508, body: "INFINITE_LOOP_DETECTED" }, ok]);
    expect(await loop.http.json({ method: "GET", path: "/x", accessType: "client" })).toEqual({ ok: true });
    expect(loop.clock.sleeps).toEqual([1000]);
    await loop.server.close();

    const broken = await clientFor([{ status: 500, body: "boom" }, ok]);
    const error = await broken.http.json({ method: "GET", path: "/x", accessType: "client" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(500);
    expect(broken.server.requests).toHaveLength(1);
  });

  it("rebuilds known errors as the catalogue's typed errors", async () => {
    const body = { code: "USER_NOT_FOUND", error: "User not found." };
    const { http } = await clientFor([{ status: 404, headers: { "x-stack-known-error": "USER_NOT_FOUND" }, body }]);
    const error = await http.json({ method: "GET", path: "/users/x", accessType: "server" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnownErrors.UserNotFound);
    expect((error as KnownError).statusCode).toBe(404);
    expect((error as KnownError).message).toBe("User not found.");
  });

  it("turns an unknown code from a newer server into a generic known error with that code", async () => {
    const body = { code: "SOMETHING_NEW", error: "New.", details: { a: 1 } };
    const { http } = await clientFor([{ status: 400, headers: { "x-stack-known-error": "SOMETHING_NEW" }, body }]);
    const error = (await http.json({ method: "GET", path: "/x", accessType: "client" }).catch((e: unknown) => e)) as KnownError;
    expect(error).toBeInstanceOf(KnownError);
    expect(error.code).toBe("SOMETHING_NEW");
    expect(error.details).toEqual({ a: 1 });
  });

  it("rejects a response whose known-error header differs from the body's code", async () => {
    const { http } = await clientFor([{ status: 404, headers: { "x-stack-known-error": "TEAM_NOT_FOUND" }, body: { code: "USER_NOT_FOUND", error: "x" } }]);
    await expect(http.json({ method: "GET", path: "/x", accessType: "client" })).rejects.toBeInstanceOf(ProtocolViolationError);
  });

  it("sends the protocol headers for the access type, and only that type's key", async () => {
    const { http, server } = await clientFor([ok], { secretServerKey: "ssk", superSecretAdminKey: "ssak" });
    await http.json({ method: "GET", path: "/users", query: { limit: 2, desc: true, cursor: undefined }, accessType: "server" });
    const [request] = server.requests;
    expect(request!.url).toBe("/api/v1/users?limit=2&desc=true");
    expect(request!.headers).toMatchObject({
      "x-stack-project-id": "p1",
      "x-stack-access-type": "server",
      "x-stack-publishable-client-key": "pck",
      "x-stack-secret-server-key": "ssk",
      "x-stack-allow-anonymous-user": "true",
    });
    expect(request!.headers["x-stack-super-secret-admin-key"]).toBeUndefined();
    expect(request!.headers["x-stack-client-version"]).toMatch(/^latchkey-core@/);
    expect(request!.headers["x-stack-random-nonce"]).toMatch(/^[0-9a-f]{24}$/);
  });

  it("refreshes and retries once the server rejects the access token", async () => {
    const rejected = { status: 401, headers: { "x-stack-known-error": "ACCESS_TOKEN_EXPIRED" }, body: { code: "ACCESS_TOKEN_EXPIRED", error: "expired", details: { expired_at_millis: 1 } } };
    const { http, server, clock } = await clientFor([rejected, ok]);
    let current = "a1";
    const session = {
      getTokens: async () => ({ accessToken: current, refreshToken: "r1" }),
      markAccessTokenExpired: (token: string) => {
        if (token === current) current = "a2";
      },
    };
    expect(await http.json({ method: "GET", path: "/users/me", accessType: "client", session })).toEqual({ ok: true });
    expect(server.requests.map((r) => r.headers["x-stack-access-token"])).toEqual(["a1", "a2"]);
    expect(clock.sleeps).toEqual([0]);
  });
});
