import { AccessTokenExpired, InvalidProjectForAccessToken, UnparsableAccessToken } from "@latchkey/protocol/errors/session";
import { importJWK, SignJWT, UnsecuredJWT, decodeJwt, generateKeyPair } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { signingKeyRingOf } from "../../server/src/crypto/signing-keys.js";
import { reachablePublicUrl, type TestProject } from "../../server/test/support/test-server.js";
import { createTokenVerifier, type TokenVerifierOptions } from "../src/server/index.js";
import { createTestProject, email, PASSWORD, useLiveServer } from "./support/live-server.js";
import { ManualClock } from "./support/manual-clock.js";

/**
 * @latchkey/core/server against a real Latchkey server: tokens it signed are read without asking it again,
 * and every token it did not sign for this project, or that has expired, is refused.
 */

const live = useLiveServer(await reachablePublicUrl());
let project: TestProject;
let other: TestProject;
let tokens: { accessToken: string; refreshToken: string; userId: string; email: string };

beforeAll(async () => {
  [project, other] = await Promise.all([createTestProject(live.server(), "Verified"), createTestProject(live.server(), "Other")]);
  tokens = await signUp(project);
});

/** A fetch that counts the requests it makes, so a test can see that verifying costs none. */
function countingFetch() {
  const urls: string[] = [];
  const counted: typeof fetch = (input, init) => {
    urls.push(String(input));
    return fetch(input, init);
  };
  return { urls, fetch: counted };
}

function verifierFor(target: TestProject, options: Partial<TokenVerifierOptions> = {}) {
  // The address the server names itself by (LATCHKEY_PUBLIC_URL), as its tokens do in their issuer.
  return createTokenVerifier({ projectId: target.projectId, baseUrl: live.server().env.publicUrl, ...options });
}

async function signUp(target: TestProject) {
  const address = email();
  const response = await fetch(`${live.server().url}/api/v1/auth/password/sign-up`, {
    method: "POST",
    headers: { ...target.headers("client"), "content-type": "application/json" },
    body: JSON.stringify({ email: address, password: PASSWORD }),
  });
  const body = (await response.json()) as { access_token: string; refresh_token: string; user_id: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { accessToken: body.access_token, refreshToken: body.refresh_token, userId: body.user_id, email: address };
}

/** A token with this project's claims, signed by `key` (kid `kid`): what a forger or another project could make. */
async function signedWith(key: CryptoKey | Uint8Array, kid: string, claims: Record<string, unknown> = {}) {
  return new SignJWT({ ...decodeJwt(tokens.accessToken), ...claims }).setProtectedHeader({ alg: "ES256", kid }).sign(key);
}

describe("verifyAccessToken", () => {
  it("reads the user from a token the server signed, fetching the project's keys once for many requests", async () => {
    const counter = countingFetch();
    const verifier = verifierFor(project, { fetch: counter.fetch });
    const user = await verifier.verifyAccessToken(tokens.accessToken);
    expect(user).toMatchObject({ id: tokens.userId, primaryEmail: tokens.email, primaryEmailVerified: false, isAnonymous: false, accessToken: tokens.accessToken });
    expect(user.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const second = await signUp(project);
    await Promise.all(Array.from({ length: 20 }, () => verifier.verifyAccessToken(second.accessToken)));
    expect(counter.urls).toEqual([`${live.server().env.publicUrl}/api/v1/projects/${project.projectId}/.well-known/jwks.json`]);
    expect(verifier.keyFetches).toBe(1);
  });

  it("refuses the token once it has expired", async () => {
    const clock = new ManualClock();
    const verifier = verifierFor(project, { clock });
    await verifier.verifyAccessToken(tokens.accessToken);
    clock.advance(live.server().env.accessTokenLifetimeSeconds * 1000 + 1000);
    await expect(verifier.verifyAccessToken(tokens.accessToken)).rejects.toBeInstanceOf(AccessTokenExpired);
    expect(await verifier.getUser(new Request("http://app.test/", { headers: { authorization: `Bearer ${tokens.accessToken}` } }))).toBeNull();
  });

  it("refuses another project's token (its audience) without fetching keys for it", async () => {
    const verifier = verifierFor(project);
    const theirs = await signUp(other);
    await expect(verifier.verifyAccessToken(theirs.accessToken)).rejects.toBeInstanceOf(InvalidProjectForAccessToken);
    expect(verifier.keyFetches).toBe(0);
  });

  it("refuses a token claiming this project but signed with another project's key, or a made-up key", async () => {
    const verifier = verifierFor(project);
    const theirKey = await signingKeyRingOf(live.server().env).signingKey(other.projectId);
    const forged = await signedWith(await importJWK(theirKey.privateJwk, "ES256"), theirKey.kid);
    await expect(verifier.verifyAccessToken(forged)).rejects.toBeInstanceOf(UnparsableAccessToken);
    // The key id of this project's own key, with a signature by a key nobody published.
    const { kid } = JSON.parse(Buffer.from(tokens.accessToken.split(".")[0]!, "base64url").toString()) as { kid: string };
    const { privateKey } = await generateKeyPair("ES256");
    await expect(verifier.verifyAccessToken(await signedWith(privateKey, kid))).rejects.toBeInstanceOf(UnparsableAccessToken);
    // Unsigned (alg "none"), and not a JWT at all.
    await expect(verifier.verifyAccessToken(new UnsecuredJWT(decodeJwt(tokens.accessToken)).encode())).rejects.toBeInstanceOf(UnparsableAccessToken);
    await expect(verifier.verifyAccessToken("not-a-token")).rejects.toBeInstanceOf(UnparsableAccessToken);
  });

  it("checks the audience against the project and the issuer against the server's public URL", async () => {
    // The audience is what names the project: a verifier of another project refuses this one's token.
    await expect(verifierFor(other).verifyAccessToken(tokens.accessToken)).rejects.toBeInstanceOf(InvalidProjectForAccessToken);
    // Signed by the right key but naming another issuer: the app was told the wrong server address.
    const verifier = verifierFor(project, { publicUrl: "https://auth.example.com" });
    await expect(verifier.verifyAccessToken(tokens.accessToken)).rejects.toThrow(/issuer is .*expected "https:\/\/auth\.example\.com\/api\/v1\/projects\/.*Set publicUrl/s);
    await expect(verifier.getUser({ headers: { authorization: `Bearer ${tokens.accessToken}` } })).rejects.toThrow(/Set publicUrl/);
  });

  it("fetches the keys again for a key id it has not seen, at most once per cooldown", async () => {
    const clock = new ManualClock();
    const verifier = verifierFor(project, { clock, keysCooldownMillis: 30_000 });
    await verifier.verifyAccessToken(tokens.accessToken);
    const { privateKey } = await generateKeyPair("ES256");
    const unknown = await signedWith(privateKey, "unknown-kid");
    await expect(verifier.verifyAccessToken(unknown)).rejects.toBeInstanceOf(UnparsableAccessToken);
    await expect(verifier.verifyAccessToken(unknown)).rejects.toBeInstanceOf(UnparsableAccessToken);
    expect(verifier.keyFetches).toBe(1);
    clock.advance(30_000);
    await expect(verifier.verifyAccessToken(unknown)).rejects.toBeInstanceOf(UnparsableAccessToken);
    expect(verifier.keyFetches).toBe(2);
  });

  it("renews the keys after their maximum age, and keeps using the old ones while the server cannot be reached", async () => {
    const clock = new ManualClock();
    let reachable = true;
    const verifier = verifierFor(project, {
      clock,
      keysMaxAgeMillis: 60_000,
      fetch: (input, init) => (reachable ? fetch(input, init) : Promise.reject(new TypeError("fetch failed"))),
    });
    await verifier.verifyAccessToken(tokens.accessToken);
    clock.advance(61_000);
    await verifier.verifyAccessToken(tokens.accessToken);
    expect(verifier.keyFetches).toBe(2);
    reachable = false;
    clock.advance(61_000);
    expect((await verifier.verifyAccessToken(tokens.accessToken)).id).toBe(tokens.userId);
    expect(verifier.keyFetches).toBe(3);
    // Not tried again on every request while it is down: after the cooldown (30 s by default).
    await verifier.verifyAccessToken(tokens.accessToken);
    expect(verifier.keyFetches).toBe(3);
    clock.advance(30_000);
    await verifier.verifyAccessToken(tokens.accessToken);
    expect(verifier.keyFetches).toBe(4);
  });

  it("says what to check when the project's keys cannot be fetched", async () => {
    // A project id the server does not know (a typo in the app's settings): its key set answers 404.
    const projectId = crypto.randomUUID();
    const token = await signedWith((await generateKeyPair("ES256")).privateKey, "k", { aud: projectId });
    await expect(createTokenVerifier({ projectId, baseUrl: live.server().url }).verifyAccessToken(token)).rejects.toThrow(/answered 404\. Check the project id and baseUrl/);
    const unreachable = createTokenVerifier({ projectId: project.projectId, baseUrl: "http://127.0.0.1:1" });
    await expect(unreachable.verifyAccessToken(tokens.accessToken)).rejects.toThrow(/is the Latchkey server at that address reachable from here\?/);
  });
});

describe("getUser", () => {
  it("finds the token in the Authorization header, the x-stack-auth header or the session cookies, in fetch and Node requests", async () => {
    const verifier = verifierFor(project);
    const cookie = `stack-refresh-${project.projectId}=${tokens.refreshToken}; stack-access=${encodeURIComponent(JSON.stringify([tokens.refreshToken, tokens.accessToken]))}`;
    const requests = [
      new Request("http://app.test/", { headers: { authorization: `Bearer ${tokens.accessToken}` } }),
      new Request("http://app.test/", { headers: { "x-stack-auth": JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }) } }),
      new Request("http://app.test/", { headers: { cookie } }),
      // Node's IncomingMessage (Express, Fastify): a plain object of lowercase header names.
      { headers: { cookie, accept: "text/html" } },
      { headers: { authorization: `bearer ${tokens.accessToken}` } },
    ];
    for (const request of requests) expect((await verifier.getUser(request))?.id).toBe(tokens.userId);
  });

  it("is null without a token, with a malformed one, and with an access cookie of an earlier session", async () => {
    const verifier = verifierFor(project);
    const cases = [
      { headers: {} },
      { headers: { authorization: "Bearer nonsense" } },
      { headers: { "x-stack-auth": "{not json" } },
      // The access cookie names the refresh token it belongs to: another session's is never used.
      { headers: { cookie: `stack-refresh-${project.projectId}=other; stack-access=${encodeURIComponent(JSON.stringify([tokens.refreshToken, tokens.accessToken]))}` } },
    ];
    for (const request of cases) expect(await verifier.getUser(request)).toBeNull();
  });
});
