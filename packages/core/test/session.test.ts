import { UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { Session } from "../src/session/session.js";
import { memoryTokenStore } from "../src/token-stores/memory-token-store.js";
import { ManualClock } from "./support/manual-clock.js";
import { accessTokenExpiringAt } from "./support/tokens.js";

const FRESHNESS = 20_000;

/** A refresher the test answers by hand, counting the requests it gets. */
function manualRefresher() {
  const calls: string[] = [];
  let answer: (token: string | null) => void = () => {};
  const refresh = (refreshToken: string) => {
    calls.push(refreshToken);
    return new Promise<string | null>((resolve) => (answer = resolve));
  };
  return { calls, refresh, answer: (token: string | null) => answer(token) };
}

describe("session state machine (SPEC §4)", () => {
  it("is signed out without tokens and never asks the server", async () => {
    const refresher = manualRefresher();
    const session = new Session(memoryTokenStore(), refresher.refresh, new ManualClock());
    expect(await session.getTokens(FRESHNESS)).toBeNull();
    expect(refresher.calls).toEqual([]);
  });

  it("uses an access token that stays valid for at least 20 s without refreshing", async () => {
    const clock = new ManualClock();
    const accessToken = accessTokenExpiringAt(clock.now() + 21_000);
    const refresher = manualRefresher();
    const session = new Session(memoryTokenStore({ accessToken, refreshToken: "r1" }), refresher.refresh, clock);
    expect(await session.getTokens(FRESHNESS)).toEqual({ accessToken, refreshToken: "r1" });
    expect(refresher.calls).toEqual([]);
  });

  it("refreshes an access token that expires within 20 s and stores the new one", async () => {
    const clock = new ManualClock();
    const old = accessTokenExpiringAt(clock.now() + 19_000);
    const fresh = accessTokenExpiringAt(clock.now() + 600_000);
    const store = memoryTokenStore({ accessToken: old, refreshToken: "r1" });
    const refresher = manualRefresher();
    const session = new Session(store, refresher.refresh, clock);
    const tokens = session.getTokens(FRESHNESS);
    await Promise.resolve();
    refresher.answer(fresh);
    expect(await tokens).toEqual({ accessToken: fresh, refreshToken: "r1" });
    expect(store.get()).toEqual({ accessToken: fresh, refreshToken: "r1" });
    expect(refresher.calls).toEqual(["r1"]);
  });

  it("refreshes when only a refresh token is held, and after time has made the token stale", async () => {
    const clock = new ManualClock();
    const refresher = manualRefresher();
    const store = memoryTokenStore({ accessToken: null, refreshToken: "r1" });
    const session = new Session(store, refresher.refresh, clock);
    const first = session.getTokens(FRESHNESS);
    await Promise.resolve();
    refresher.answer(accessTokenExpiringAt(clock.now() + 60_000));
    await first;
    expect(refresher.calls).toHaveLength(1);

    clock.advance(39_000); // 21 s left: still fresh
    await session.getTokens(FRESHNESS);
    expect(refresher.calls).toHaveLength(1);
    clock.advance(2_000); // 19 s left: stale
    const second = session.getTokens(FRESHNESS);
    await Promise.resolve();
    expect(refresher.calls).toHaveLength(2);
    refresher.answer(accessTokenExpiringAt(clock.now() + 60_000));
    await second;
  });

  it("shares one refresh request between concurrent callers", async () => {
    const clock = new ManualClock();
    const refresher = manualRefresher();
    const session = new Session(memoryTokenStore({ accessToken: accessTokenExpiringAt(clock.now() - 1), refreshToken: "r1" }), refresher.refresh, clock);
    const callers = [session.getTokens(FRESHNESS), session.getTokens(FRESHNESS), session.getTokens(FRESHNESS)];
    await Promise.resolve();
    const fresh = accessTokenExpiringAt(clock.now() + 600_000);
    refresher.answer(fresh);
    const results = await Promise.all(callers);
    expect(refresher.calls).toEqual(["r1"]);
    for (const result of results) expect(result?.accessToken).toBe(fresh);
  });

  it("signs out (clears both tokens) when the server rejects the refresh token", async () => {
    const clock = new ManualClock();
    const store = memoryTokenStore({ accessToken: accessTokenExpiringAt(clock.now() + 5_000), refreshToken: "gone" });
    const refresher = manualRefresher();
    const session = new Session(store, refresher.refresh, clock);
    const callers = [session.getTokens(FRESHNESS), session.getTokens(FRESHNESS)];
    await Promise.resolve();
    refresher.answer(null);
    expect(await Promise.all(callers)).toEqual([null, null]);
    expect(store.get()).toEqual({ accessToken: null, refreshToken: null });
    expect(await session.getTokens(FRESHNESS)).toBeNull();
    expect(refresher.calls).toEqual(["gone"]);
  });

  it("does not let a refresh answer for an old session overwrite a newer sign-in", async () => {
    const clock = new ManualClock();
    const store = memoryTokenStore({ accessToken: null, refreshToken: "old" });
    const refresher = manualRefresher();
    const session = new Session(store, refresher.refresh, clock);
    const pending = session.getTokens(FRESHNESS);
    await Promise.resolve();
    const newer = { accessToken: accessTokenExpiringAt(clock.now() + 600_000), refreshToken: "new" };
    session.signIn(newer);
    refresher.answer(null);
    expect(await pending).toEqual(newer);
    expect(store.get()).toEqual(newer);
  });

  it("refreshes on the next call after the server rejected an access token", async () => {
    const clock = new ManualClock();
    const rejected = accessTokenExpiringAt(clock.now() + 600_000);
    const store = memoryTokenStore({ accessToken: rejected, refreshToken: "r1" });
    const refresher = manualRefresher();
    const session = new Session(store, refresher.refresh, clock);
    session.markAccessTokenExpired(rejected);
    expect(store.get().accessToken).toBeNull();
    const pending = session.getTokens(FRESHNESS);
    await Promise.resolve();
    expect(refresher.calls).toEqual(["r1"]);
    refresher.answer(accessTokenExpiringAt(clock.now() + 600_000));
    expect((await pending)?.refreshToken).toBe("r1");
  });

  it("treats an access token without exp as never expiring (SPEC §3)", async () => {
    const forever = new UnsecuredJWT({}).setSubject("u").encode();
    const refresher = manualRefresher();
    const session = new Session(memoryTokenStore({ accessToken: forever, refreshToken: null }), refresher.refresh, new ManualClock());
    expect((await session.getTokens(FRESHNESS))?.accessToken).toBe(forever);
    expect(refresher.calls).toEqual([]);
  });
});
