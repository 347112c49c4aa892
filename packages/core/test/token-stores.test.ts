import { describe, expect, it } from "vitest";
import { documentCookieJar, type CookieJar } from "../src/token-stores/cookie-jar.js";
import { cookieTokenStore } from "../src/token-stores/cookie-token-store.js";
import { requestTokenStore } from "../src/token-stores/request-token-store.js";
import { ManualClock } from "./support/manual-clock.js";

/** A cookie jar as a browser would keep it; `https: false` drops Secure cookies as browsers do on http pages. */
function browserJar({ https }: { https: boolean }) {
  const cookies = new Map<string, { value: string; maxAgeSeconds: number; secure: boolean }>();
  const writes: string[] = [];
  const jar: CookieJar = {
    get: (name) => cookies.get(name)?.value,
    set(name, value, options) {
      writes.push(name);
      if (options.secure && !https) return;
      cookies.set(name, { value, ...options });
    },
    delete: (name) => void cookies.delete(name),
  };
  return { jar, cookies, writes };
}

const projectId = "5c1f7a52-7f0e-4a43-9a9b-7e4d1f2d3c4b";

describe("cookie token store (SPEC §9)", () => {
  it("writes the refresh token for a year and the access token, tied to it, for a day", () => {
    const { jar, cookies } = browserJar({ https: true });
    const store = cookieTokenStore({ projectId, jar, pollIntervalMillis: 0 });
    store.set({ refreshToken: "r1", accessToken: "a1" });
    expect(cookies.get(`stack-refresh-${projectId}`)).toEqual({ value: "r1", maxAgeSeconds: 31_536_000, secure: true });
    expect(cookies.get("stack-access")).toEqual({ value: JSON.stringify(["r1", "a1"]), maxAgeSeconds: 86_400, secure: true });
    expect(cookies.get("stack-is-https")?.value).toBe("true");
    expect(store.get()).toEqual({ refreshToken: "r1", accessToken: "a1" });
  });

  it("writes non-Secure cookies on an http page (stack-is-https does not stick there)", () => {
    const { jar, cookies } = browserJar({ https: false });
    const store = cookieTokenStore({ projectId, jar, pollIntervalMillis: 0 });
    store.set({ refreshToken: "r1", accessToken: "a1" });
    expect(cookies.has("stack-is-https")).toBe(false);
    expect(cookies.get(`stack-refresh-${projectId}`)?.secure).toBe(false);
  });

  it("ignores a stored access token whose refresh token is not the current one", () => {
    const { jar } = browserJar({ https: true });
    jar.set(`stack-refresh-${projectId}`, "r2", { maxAgeSeconds: 1, secure: false });
    jar.set("stack-access", JSON.stringify(["r1", "a1"]), { maxAgeSeconds: 1, secure: false });
    expect(cookieTokenStore({ projectId, jar, pollIntervalMillis: 0 }).get()).toEqual({ refreshToken: "r2", accessToken: null });
  });

  it("reads the legacy stack-refresh cookie and removes it on the next write", () => {
    const { jar, cookies } = browserJar({ https: true });
    jar.set("stack-refresh", "legacy", { maxAgeSeconds: 1, secure: false });
    const store = cookieTokenStore({ projectId, jar, pollIntervalMillis: 0 });
    expect(store.get().refreshToken).toBe("legacy");
    store.set({ refreshToken: "legacy", accessToken: "a1" });
    expect(cookies.has("stack-refresh")).toBe(false);
    expect(cookies.get(`stack-refresh-${projectId}`)?.value).toBe("legacy");
  });

  it("deletes both cookies on sign-out", () => {
    const { jar, cookies } = browserJar({ https: true });
    const store = cookieTokenStore({ projectId, jar, pollIntervalMillis: 0 });
    store.set({ refreshToken: "r1", accessToken: "a1" });
    store.set({ refreshToken: null, accessToken: null });
    expect(cookies.has(`stack-refresh-${projectId}`)).toBe(false);
    expect(cookies.has("stack-access")).toBe(false);
  });

  it("notices cookies changed elsewhere (another tab) while someone listens, polling every 100 ms", () => {
    const { jar } = browserJar({ https: true });
    const clock = new ManualClock();
    const store = cookieTokenStore({ projectId, jar, clock });
    const seen: Array<string | null> = [];
    const stop = store.subscribe((tokens) => seen.push(tokens.refreshToken));
    jar.set(`stack-refresh-${projectId}`, "from-other-tab", { maxAgeSeconds: 1, secure: false });
    clock.advance(99);
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen).toEqual(["from-other-tab"]);
    stop();
    jar.delete(`stack-refresh-${projectId}`);
    clock.advance(1000);
    expect(seen).toEqual(["from-other-tab"]);
  });

  it("writes stack-is-https when it is missing, not at every poll, and writes it again after it was removed", () => {
    const { jar, cookies, writes } = browserJar({ https: true });
    const clock = new ManualClock();
    const store = cookieTokenStore({ projectId, jar, clock });
    const stop = store.subscribe(() => {});
    clock.advance(1000);
    expect(writes).toEqual(["stack-is-https"]);
    cookies.delete("stack-is-https");
    clock.advance(100);
    expect(cookies.get("stack-is-https")?.value).toBe("true");
    expect(writes).toEqual(["stack-is-https", "stack-is-https"]);
    stop();
  });

  it("tries stack-is-https once on an http page, where the browser drops it", () => {
    const { jar, writes } = browserJar({ https: false });
    const clock = new ManualClock();
    const store = cookieTokenStore({ projectId, jar, clock });
    const stop = store.subscribe(() => {});
    clock.advance(1000);
    store.set({ refreshToken: "r1", accessToken: "a1" });
    expect(writes.filter((name) => name === "stack-is-https")).toEqual(["stack-is-https"]);
    stop();
  });
});

describe("document cookie jar", () => {
  it("reads what document.cookie holds at each read, as the browser last changed it", () => {
    const document = { cookie: "a=1; b=%22x%22" };
    const jar = documentCookieJar(document);
    expect(jar.get("a")).toBe("1");
    expect(jar.get("b")).toBe('"x"');
    document.cookie = "a=2";
    expect(jar.get("a")).toBe("2");
    expect(jar.get("b")).toBeUndefined();
  });
});

describe("request token store (server side)", () => {
  it("takes the tokens of the x-stack-auth header", () => {
    const request = new Request("http://app.test/", { headers: { "x-stack-auth": JSON.stringify({ accessToken: "a1", refreshToken: "r1" }) } });
    expect(requestTokenStore(projectId, request).get()).toEqual({ accessToken: "a1", refreshToken: "r1" });
  });

  it("falls back to the request's cookies, with the same refresh-token match", () => {
    const cookie = `stack-refresh-${projectId}=r1; stack-access=${encodeURIComponent(JSON.stringify(["r1", "a1"]))}`;
    expect(requestTokenStore(projectId, new Request("http://app.test/", { headers: { cookie } })).get()).toEqual({ refreshToken: "r1", accessToken: "a1" });
    const stale = `stack-refresh-${projectId}=r2; stack-access=${encodeURIComponent(JSON.stringify(["r1", "a1"]))}`;
    expect(requestTokenStore(projectId, new Request("http://app.test/", { headers: { cookie: stale } })).get()).toEqual({ refreshToken: "r2", accessToken: null });
  });

  it("is signed out for a request without tokens", () => {
    expect(requestTokenStore(projectId, new Request("http://app.test/")).get()).toEqual({ refreshToken: null, accessToken: null });
  });

  it("rejects an x-stack-auth header that is not a JSON object", () => {
    const request = new Request("http://app.test/", { headers: { "x-stack-auth": "[1]" } });
    expect(() => requestTokenStore(projectId, request)).toThrow("Invalid x-stack-auth header");
  });
});

describe("cookie token store without a browser", () => {
  it("explains what to use instead of document.cookie", () => {
    expect(() => cookieTokenStore({ projectId })).toThrow("The cookie token store needs a browser document");
  });
});
