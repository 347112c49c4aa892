import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODES_ONLY_IN, DIALECTS, isCodeKnownIn, knownErrorInDialect } from "@latchkey/protocol/dialects";
import { KnownErrors } from "@latchkey/protocol/errors";
import { API_ROUTES } from "../src/app.js";
import { PIPELINE_ERRORS } from "../src/http/route.js";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";

// Issue 14: each request is answered in the protocol version its headers name (x-stack-* → 2.8.41,
// x-hexclave-* → 2.8.108), and never with the other version's headers or codes.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function headers(prefix: "x-stack-" | "x-hexclave-", access: "client" | "server", extra: Record<string, string> = {}): Record<string, string> {
  const key = access === "client" ? ["publishable-client-key", WELL_KNOWN_DEV_KEYS.publishableClientKey] : ["secret-server-key", WELL_KNOWN_DEV_KEYS.secretServerKey];
  return { [`${prefix}project-id`]: "internal", [`${prefix}access-type`]: access, [`${prefix}${key[0]}`]: key[1]!, ...extra };
}

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}/api/v1${path}`, init);
  const text = await response.text();
  return { response, text, body: text.startsWith("{") ? JSON.parse(text) : text };
}

const headerNames = (response: Response) => [...response.headers.keys()];

describe("the protocol version of a request", () => {
  it("reads x-hexclave-* headers as a 2.8.108 request and answers its errors under both header names", async () => {
    const { response, body } = await call("/users/me", {
      headers: headers("x-hexclave-", "client", { "x-hexclave-access-token": "not-a-token", "x-hexclave-override-error-status": "true" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-hexclave-actual-status")).toBe("401");
    expect(response.headers.get("x-stack-actual-status")).toBe("401");
    expect(response.headers.get("x-hexclave-known-error")).toBe("UNPARSABLE_ACCESS_TOKEN");
    expect(response.headers.get("x-stack-known-error")).toBe("UNPARSABLE_ACCESS_TOKEN");
    expect(response.headers.get("x-hexclave-request-id")).toBe(response.headers.get("x-stack-request-id"));
    expect(body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
  });

  it("answers an x-stack-* request with x-stack-* headers only, as before", async () => {
    const { response, body } = await call("/users/me", {
      headers: headers("x-stack-", "client", { "x-stack-access-token": "not-a-token", "x-stack-override-error-status": "true" }),
    });
    expect(response.headers.get("x-stack-actual-status")).toBe("401");
    expect(body.code).toBe("UNPARSABLE_ACCESS_TOKEN");
    expect(headerNames(response).filter((name) => name.startsWith("x-hexclave-"))).toEqual([]);
    expect(response.headers.get("access-control-expose-headers")).not.toContain("hexclave");
    expect(response.headers.get("access-control-allow-headers")).not.toContain("hexclave");
  });

  it("authenticates the same keys under either prefix", async () => {
    for (const prefix of ["x-stack-", "x-hexclave-"] as const) {
      const { response, body } = await call("/users?limit=1", { headers: headers(prefix, "server") });
      expect(response.status, prefix).toBe(200);
      expect(body.is_paginated).toBe(true);
    }
  });

  it("refuses a request that mixes both prefixes with a SCHEMA_ERROR both clients can read", async () => {
    const { response, body } = await call("/projects/current", {
      headers: { ...headers("x-stack-", "client"), "x-hexclave-access-type": "client" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
    expect(response.headers.get("x-hexclave-known-error")).toBe("SCHEMA_ERROR");
    expect(body.error).toBe(
      "Request validation failed on GET /api/v1/projects/current:\n  - headers must use one prefix: x-stack-* (SDK 2.8.41) or x-hexclave-* (SDK 2.8.108), not both",
    );
  });

  it("answers a browser's preflight with the header names of the version it is about to send", async () => {
    for (const [requested, prefix] of [["x-hexclave-project-id,x-hexclave-access-type", "x-hexclave-"], ["x-stack-project-id,x-stack-access-type", "x-stack-"]] as const) {
      const response = await fetch(`${server.url}/api/v1/users/me`, {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "GET", "access-control-request-headers": requested },
      });
      expect(response.status).toBe(200);
      const allowed = response.headers.get("access-control-allow-headers")!.split(", ");
      for (const name of ["project-id", "access-type", "publishable-client-key", "access-token", "refresh-token", "allow-anonymous-user"]) {
        expect(allowed).toContain(prefix + name);
      }
      expect(allowed).toContain("ngrok-skip-browser-warning");
      expect(allowed.some((name) => name.startsWith(prefix === "x-stack-" ? "x-hexclave-" : "x-stack-"))).toBe(false);
    }
  });

  it("names the refresh-token header of the request's version when it is missing", async () => {
    const { body } = await call("/auth/sessions/current/refresh", { method: "POST", headers: headers("x-hexclave-", "client") });
    expect(body.error).toContain("headers.x-hexclave-refresh-token must be defined");
  });
});

describe("client requests without a publishable key", () => {
  const keyless = (prefix: "x-stack-" | "x-hexclave-", projectId: string) => ({ [`${prefix}project-id`]: projectId, [`${prefix}access-type`]: "client" });

  it("are served in 2.8.108 unless the project requires keys, and refused in 2.8.41 as before", async () => {
    const project = await createTestProject(server, "Keyless");
    const newer = await call("/projects/current", { headers: keyless("x-hexclave-", project.projectId) });
    expect(newer.response.status).toBe(200);
    expect(newer.body.id).toBe(project.projectId);
    const older = await call("/projects/current", { headers: keyless("x-stack-", project.projectId) });
    expect(older.response.status).toBe(401);
    expect(older.body).toEqual({ code: "CLIENT_AUTHENTICATION_REQUIRED", error: "The publishable client key must be provided." });

    const configured = await call("/internal/config/override", {
      method: "PATCH",
      headers: { ...project.headers("admin"), "content-type": "application/json" },
      body: JSON.stringify({ config_override_string: JSON.stringify({ "project.requirePublishableClientKey": true }) }),
    });
    expect(configured.response.status).toBe(200);
    const required = await call("/projects/current", { headers: keyless("x-hexclave-", project.projectId) });
    expect(required.response.status).toBe(401);
    expect(required.response.headers.get("x-hexclave-known-error")).toBe("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT");
    expect(required.body.details).toEqual({ project_id: project.projectId });
    expect((await call("/projects/current", { headers: keyless("x-stack-", project.projectId) })).body.code).toBe("CLIENT_AUTHENTICATION_REQUIRED");
  });

  it("are required once the 2.8.108 admin SDK says so, its config changes going to the override by level", async () => {
    const project = await createTestProject(server, "Keyless by SDK");
    const admin: any = stackSdk(server, project, "2.8.108").admin();
    const adminProject = await admin.getProject();
    await adminProject.update({ requirePublishableClientKey: true });
    expect((await call("/projects/current", { headers: keyless("x-hexclave-", project.projectId) })).body.code).toBe("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT");
    await adminProject.updateConfig({ "auth.allowSignUp": false });
    expect((await adminProject.getConfig()).auth.allowSignUp).toBe(false);
    // One override here for every level: each reads what all wrote, in the override's dotted keys.
    for (const level of ["project", "branch", "environment"]) {
      expect(await adminProject.getConfigOverride(level)).toMatchObject({ "project.requirePublishableClientKey": true, "auth.allowSignUp": false });
    }
    // OAuth client secrets are write-only here too, in dotted or nested form.
    await adminProject.updateConfig({ "auth.oauth.providers.github": { type: "github", isShared: false, clientId: "id-1", clientSecret: "secret-1", allowSignIn: true, allowConnectedAccounts: true } });
    await adminProject.updateConfig({ "auth.oauth.providers.github.clientSecret": "secret-2" });
    const override = JSON.stringify(await adminProject.getConfigOverride("environment"));
    expect(override).toContain("id-1");
    expect(override).not.toMatch(/secret-[12]|clientSecret/);
    await adminProject.resetConfigOverrideKeys("environment", ["auth.allowSignUp"]);
    expect((await adminProject.getConfig()).auth.allowSignUp).toBe(true);
    expect((await adminProject.getConfig()).project.requirePublishableClientKey).toBe(true);
    const badLevel = await call("/internal/config/override/tenant", { headers: project.headers("admin") });
    expect(badLevel.body.code).toBe("SCHEMA_ERROR");
  });

  it("let the 2.8.108 SDK of an app without a key sign up, refresh through the token endpoint and sign out", async () => {
    const project = await createTestProject(server, "Keyless SDK");
    const app = stackSdk(server, { ...project, publishableClientKey: "" }, "2.8.108").client();
    const email = `keyless-${crypto.randomUUID()}@example.com`;
    expect((await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe(email);
    const { refreshToken } = await user.currentSession.getTokens();
    // The token endpoint as the SDK calls it with no key: client secret `__stack_public_client__`.
    const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken!, client_id: project.projectId, client_secret: "__stack_public_client__" });
    const refreshed = await call("/auth/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form });
    expect(refreshed.response.status).toBe(200);
    expect(refreshed.body.token_type).toBe("bearer");
    expect(typeof refreshed.body.access_token).toBe("string");
    await user.signOut();
    expect(await app.getUser()).toBeNull();
  });
});

describe("known errors the server raises", () => {
  const declared = new Set([...PIPELINE_ERRORS, ...API_ROUTES.flatMap((route) => route.errors ?? [])]);

  it("are each sent to each version under a code that version's SDK knows", () => {
    expect(declared.size).toBeGreaterThan(20);
    for (const ErrorClass of declared) {
      for (const dialect of DIALECTS) {
        const sample = Object.create(ErrorClass.prototype) as InstanceType<typeof KnownErrors.SchemaError>;
        if (isCodeKnownIn(ErrorClass.code, dialect)) continue;
        // A code the version lacks must have a translation into one it knows.
        Object.defineProperty(sample, "statusCode", { value: ErrorClass.status });
        const { body } = knownErrorInDialect(sample, dialect);
        expect(CODES_ONLY_IN[dialect === "2.8.41" ? "2.8.108" : "2.8.41"], `${ErrorClass.code} → ${body.code} for ${dialect}`).not.toContain(body.code);
      }
    }
  });
});
