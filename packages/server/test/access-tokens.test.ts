import { createHmac, createPublicKey } from "node:crypto";
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signAccessToken, tokenIssuer } from "../src/crypto/access-tokens.js";
import { api, expectProtocolInvariants } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

const OLD_SECRET = "access-token-test-old-secret-0123456789abcdef";
const NEW_SECRET = "access-token-test-new-secret-0123456789abcdef";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LATCHKEY_SERVER_SECRET: OLD_SECRET });
});
afterAll(async () => {
  await server?.close();
});

async function signUp(project: TestProject, target = server): Promise<{ access_token: string; refresh_token: string; user_id: string }> {
  const email = `user-${crypto.randomUUID()}@example.com`;
  const response = await api(target.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email, password: "correct horse" } });
  expect(response.status).toBe(200);
  return response.body;
}
const withToken = (project: TestProject, token: string, target = server) =>
  api(target.url, "/auth/sessions?user_id=me", { headers: { ...project.headers("client"), "x-stack-access-token": token } });
const jwksUrl = (projectId: string, target = server, query = "") => new URL(`${target.url}/api/v1/projects/${projectId}/.well-known/jwks.json${query}`);
const b64url = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

const CLAIMS_2_8_41 = ["sub", "project_id", "branch_id", "refresh_token_id", "role", "name", "email", "email_verified", "selected_team_id", "is_anonymous", "iss", "aud", "exp", "iat"];
const CLAIMS_2_8_108_ONLY = ["signed_up_at", "is_restricted", "restricted_reason", "requires_totp_mfa"];
const asDialect = (headers: Record<string, string>, prefix: string) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/^x-stack-/, prefix), value]));

/** The OAuth token endpoint's refresh grant as both SDKs send it: a form body and no protocol headers. */
async function refreshWithoutProtocolHeaders(project: TestProject, refreshToken: string): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/auth/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: project.projectId, client_secret: project.publishableClientKey }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe("access tokens", () => {
  it("carry exactly the 2.8.41 claims, in the reference's order, when the request has x-stack-* headers, and verify against the project's JWKS over the socket", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const header = decodeProtectedHeader(tokens.access_token);
    expect(header).toMatchObject({ alg: "ES256", typ: "JWT", kid: expect.any(String) });

    const claims = decodeJwt(tokens.access_token);
    expect(Object.keys(claims)).toEqual(CLAIMS_2_8_41);
    expect(claims).toMatchObject({ sub: tokens.user_id, aud: project.projectId, project_id: project.projectId, branch_id: "main", role: "authenticated", name: null, is_anonymous: false, selected_team_id: null });
    expect(claims.exp! - claims.iat!).toBe(server.env.accessTokenLifetimeSeconds);

    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(jwksUrl(project.projectId)), {
      issuer: tokenIssuer(server.env, project.projectId, false),
      audience: project.projectId,
      algorithms: ["ES256"],
    });
    expect(payload.sub).toBe(tokens.user_id);

    // Refreshed in the same dialect: the same claims.
    const refreshed = await api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": tokens.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect(Object.keys(decodeJwt(refreshed.body.access_token))).toEqual(CLAIMS_2_8_41);
  });

  it("carry 2.8.108's claims when the request has x-hexclave-* headers, and every claim when it names no version", async () => {
    const project = await createTestProject(server);
    const email = `user-${crypto.randomUUID()}@example.com`;
    const headers = asDialect(project.headers("client"), "x-hexclave-");
    const signedUp = await api(server.url, "/auth/password/sign-up", { headers, body: { email, password: "correct horse" } });
    expect(signedUp.status).toBe(200);
    const full = [...CLAIMS_2_8_41, ...CLAIMS_2_8_108_ONLY].sort();
    const newer = decodeJwt(signedUp.body.access_token);
    expect(Object.keys(newer).sort()).toEqual(full);
    expect(newer).toMatchObject({ is_restricted: false, restricted_reason: null, requires_totp_mfa: false, signed_up_at: expect.any(Number) });
    const refreshed = await api(server.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...headers, "x-hexclave-refresh-token": signedUp.body.refresh_token } });
    expect(Object.keys(decodeJwt(refreshed.body.access_token)).sort()).toEqual(full);

    // The token endpoint as the SDKs call it sends no protocol header: either version's client may read the token.
    const older = await signUp(project);
    expect(Object.keys(decodeJwt(await refreshWithoutProtocolHeaders(project, older.refresh_token))).sort()).toEqual(full);
  });

  it("are refused when unparsable, tampered with, or signed any other way", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const [encodedHeader, encodedPayload, signature] = tokens.access_token.split(".") as [string, string, string];
    const header = decodeProtectedHeader(tokens.access_token);
    const claims = decodeJwt(tokens.access_token);
    const publicJwk = (await (await fetch(jwksUrl(project.projectId))).json()).keys[0] as JWK;

    const unsigned = `${b64url({ alg: "none", typ: "JWT", kid: header.kid })}.${encodedPayload}.`;
    const hmacWith = (key: Buffer | string) => {
      const input = `${b64url({ ...header, alg: "HS256" })}.${encodedPayload}`;
      return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
    };
    const publicKey = createPublicKey({ key: publicJwk as import("node:crypto").JsonWebKey, format: "jwk" });
    const foreign = await generateKeyPair("ES256");
    const foreignSigned = await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "JWT", kid: header.kid! }).sign(foreign.privateKey);
    const foreignWithJwk = await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "JWT", jwk: await exportJWK(foreign.publicKey) }).sign(foreign.privateKey);
    const tampered = `${encodedHeader}.${b64url({ ...claims, sub: crypto.randomUUID() })}.${signature}`;

    const forged = {
      "garbage": "not.a.token",
      "alg none": unsigned,
      "HS256 keyed with the public key (PEM)": hmacWith(publicKey.export({ type: "spki", format: "pem" }) as string),
      "HS256 keyed with the public key (DER)": hmacWith(publicKey.export({ type: "spki", format: "der" })),
      "HS256 keyed with the public JWK": hmacWith(JSON.stringify(publicJwk)),
      "ES256 by a foreign key": foreignSigned,
      "ES256 by an embedded foreign key": foreignWithJwk,
      "tampered payload": tampered,
    };
    for (const [name, token] of Object.entries(forged)) {
      const response = await withToken(project, token);
      expect(response.status, name).toBe(401);
      expect(response.body.code, name).toBe("UNPARSABLE_ACCESS_TOKEN");
    }
    expect((await withToken(project, tokens.access_token)).status).toBe(200);
  });

  it("report expiry with its time, on any route", async () => {
    const project = await createTestProject(server);
    const tokens = await signUp(project);
    const claims = decodeJwt(tokens.access_token);
    const issuedAt = Date.now() - 2 * server.env.accessTokenLifetimeSeconds * 1000;
    const expired = await signAccessToken(
      server.env,
      {
        projectId: project.projectId,
        branchId: "main",
        userId: tokens.user_id,
        refreshTokenId: claims.refresh_token_id as string,
        name: null,
        email: claims.email as string,
        emailVerified: false,
        selectedTeamId: null,
        signedUpAt: new Date(issuedAt),
        isAnonymous: false,
        restrictedReason: null,
        requiresTotpMfa: false,
      },
      issuedAt,
    );
    const expiredAt = (Math.floor(issuedAt / 1000) + server.env.accessTokenLifetimeSeconds) * 1000;
    for (const path of ["/auth/sessions?user_id=me", "/projects/current"]) {
      const response = await api(server.url, path, { headers: { ...project.headers("client"), "x-stack-access-token": expired } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        code: "ACCESS_TOKEN_EXPIRED",
        details: { expired_at_millis: expiredAt },
        error: `Access token has expired. Please refresh it and try again. (The access token expired at ${new Date(expiredAt).toISOString()}.)`,
      });
    }
    const update = await api(server.url, "/auth/password/update", {
      headers: { ...project.headers("client"), "x-stack-access-token": expired },
      body: { old_password: "correct horse", new_password: "another horse" },
    });
    expect(update.body.code).toBe("ACCESS_TOKEN_EXPIRED");
  });

  it("are refused by other projects", async () => {
    const project = await createTestProject(server);
    const other = await createTestProject(server);
    const tokens = await signUp(project);
    const response = await withToken(other, tokens.access_token);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "INVALID_PROJECT_FOR_ACCESS_TOKEN", details: { expected_project_id: other.projectId, actual_project_id: project.projectId } });
    const otherJwks = createRemoteJWKSet(jwksUrl(other.projectId));
    await expect(jwtVerify(tokens.access_token, otherJwks)).rejects.toThrow();
  });

  it("keep verifying when the server secret changes, which changes no signing key", async () => {
    const project = await createTestProject(server);
    const before = await signUp(project);
    const jwksBefore = (await (await fetch(jwksUrl(project.projectId))).json()).keys as JWK[];
    // A second process with a new secret: the old one, listed as previous, still decrypts the stored keys.
    const rotated = await startTestServer({ LATCHKEY_SERVER_SECRET: NEW_SECRET, LATCHKEY_PREVIOUS_SERVER_SECRETS: OLD_SECRET }, { sameDatabaseAs: server });
    try {
      expect((await withToken(project, before.access_token, rotated)).status).toBe(200);
      const keys = (await (await fetch(jwksUrl(project.projectId, rotated))).json()).keys as JWK[];
      expect(keys).toEqual(jwksBefore);
      await jwtVerify(before.access_token, createRemoteJWKSet(jwksUrl(project.projectId, rotated)), { audience: project.projectId });

      // Both processes sign with the database's current key, and each verifies the other's tokens.
      const after = await signUp(project, rotated);
      expect(decodeProtectedHeader(after.access_token).kid).toBe(decodeProtectedHeader(before.access_token).kid);
      expect((await withToken(project, after.access_token, server)).status).toBe(200);
    } finally {
      await rotated.close();
    }
  });

  it("are refused to a process whose secrets cannot decrypt the stored keys: it does not start", async () => {
    await expect(startTestServer({ LATCHKEY_SERVER_SECRET: "an-unrelated-secret-0123456789abcdef-0123" }, { sameDatabaseAs: server })).rejects.toThrow(
      /LATCHKEY_PREVIOUS_SERVER_SECRETS/,
    );
  });
});

describe("the JWKS endpoint", () => {
  it("publishes public keys only, cacheable, without any keys sent", async () => {
    const project = await createTestProject(server);
    const response = await fetch(jwksUrl(project.projectId));
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(body.keys).toHaveLength(2);
    for (const key of body.keys) {
      // The reference's members, in its order, without `use`.
      expect(Object.keys(key)).toEqual(["kty", "alg", "crv", "x", "y", "kid"]);
      expect(key).toEqual({ kty: "EC", alg: "ES256", crv: "P-256", x: expect.any(String), y: expect.any(String), kid: expect.any(String) });
    }

    const withAnonymous = await (await fetch(jwksUrl(project.projectId, server, "?include_anonymous=true"))).json();
    expect(withAnonymous.keys).toHaveLength(4);
    expect(withAnonymous.keys.slice(0, 2)).toEqual(body.keys);
    expect((await (await fetch(jwksUrl(project.projectId, server, "?include_anonymous=false"))).json()).keys).toHaveLength(2);
  });

  it("reports unknown projects and bad queries as the protocol does", async () => {
    for (const id of [crypto.randomUUID(), "not-a-project"]) {
      const response = await fetch(jwksUrl(id));
      const body = await response.json();
      expectProtocolInvariants(response, body);
      expect(response.status).toBe(404);
      expect(body.code).toBe("PROJECT_NOT_FOUND");
    }
    const project = await createTestProject(server);
    const bad = await api(server.url, `/projects/${project.projectId}/.well-known/jwks.json?include_anonymous=yes`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("SCHEMA_ERROR");
  });
});
