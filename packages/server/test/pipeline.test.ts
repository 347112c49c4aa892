import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const call = (path: string, request?: Parameters<typeof api>[2]) => api(server.url, path, request);

describe("the API root", () => {
  it("greets an unauthenticated caller and says no authentication was seen", async () => {
    const response = await call("");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.text).toBe("Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: None");
  });

  it.each(["client", "server", "admin"] as const)("says which access type authenticated a %s caller", async (access) => {
    const response = await call("", { access });
    expect(response.status).toBe(200);
    const type = access[0]!.toUpperCase() + access.slice(1);
    expect(response.text).toContain(`Authentication: ${type}\n  Project: internal\n  User: None`);
  });

  it("reports health outside the API", async () => {
    const response = await fetch(server.url + "/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("header resolution", () => {
  const base = { "x-stack-project-id": "internal" };

  it("rejects a key sent without an access type", async () => {
    const response = await call("", { headers: { "x-stack-publishable-client-key": "anything" } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("PROJECT_KEY_WITHOUT_ACCESS_TYPE");
  });

  it("rejects an admin access token sent without an access type", async () => {
    const response = await call("", { headers: { "x-stack-admin-access-token": "token" } });
    expect(response.body.code).toBe("PROJECT_KEY_WITHOUT_ACCESS_TYPE");
  });

  it("rejects an access type that is not client, server or admin", async () => {
    const response = await call("", { headers: { ...base, "x-stack-access-type": "superuser" } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: "INVALID_ACCESS_TYPE",
      error: "The x-stack-access-type header must be 'client', 'server', or 'admin', but was 'superuser'.",
    });
  });

  it("rejects an access type without a project id", async () => {
    const response = await call("", { headers: { "x-stack-access-type": "client" } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("ACCESS_TYPE_WITHOUT_PROJECT_ID");
    expect(response.body.details).toEqual({ request_type: "client" });
  });

  it("reports an unknown project as the current project not being found", async () => {
    for (const projectId of ["00000000-0000-4000-8000-00000000abcd", "not-a-project"]) {
      const response = await call("", { headers: { "x-stack-project-id": projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": "x" } });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("CURRENT_PROJECT_NOT_FOUND");
      expect(response.body.details).toEqual({ project_id: projectId });
    }
  });

  it("reports a branch that does not exist", async () => {
    const response = await call("", { access: "client", headers: { "x-stack-branch-id": "feature" } });
    expect(response.body.code).toBe("BRANCH_DOES_NOT_EXIST");
  });

  it.each([
    ["client", "CLIENT_AUTHENTICATION_REQUIRED"],
    ["server", "SERVER_AUTHENTICATION_REQUIRED"],
    ["admin", "ADMIN_AUTHENTICATION_REQUIRED"],
  ])("asks a %s caller without its key for the key", async (accessType, code) => {
    const response = await call("", { headers: { ...base, "x-stack-access-type": accessType } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(code);
  });

  it.each([
    ["client", "x-stack-publishable-client-key", "INVALID_PUBLISHABLE_CLIENT_KEY"],
    ["server", "x-stack-secret-server-key", "INVALID_SECRET_SERVER_KEY"],
    ["admin", "x-stack-super-secret-admin-key", "INVALID_SUPER_SECRET_ADMIN_KEY"],
  ])("rejects a wrong %s key", async (accessType, header, code) => {
    const response = await call("", { headers: { ...base, "x-stack-access-type": accessType, [header]: "pck_wrong" } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(code);
    expect(response.body.details).toEqual({ project_id: "internal" });
  });

  it("does not accept a key of one kind in place of another", async () => {
    const response = await call("", {
      headers: { ...base, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": "this-secret-server-key-is-for-local-development-only" },
    });
    expect(response.body.code).toBe("INVALID_SUPER_SECRET_ADMIN_KEY");
  });

  it("requires an access type on routes that need one", async () => {
    const response = await call("/projects/current");
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("ACCESS_TYPE_REQUIRED");
  });

  it("names the actual and allowed access types when the access type is insufficient", async () => {
    const response = await call("/internal/api-keys", { access: "client" });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      code: "INSUFFICIENT_ACCESS_TYPE",
      details: { actual_access_type: "client", allowed_access_types: ["admin"] },
      error: "The x-stack-access-type header must be 'admin', but was 'client'.",
    });
  });
});

describe("response headers", () => {
  it("turns a 4xx into a 200 when asked to override the error status, reporting the real one", async () => {
    const response = await call("/internal/api-keys", { access: "client", headers: { "x-stack-override-error-status": "true" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-stack-actual-status")).toBe("401");
    expect(response.headers.get("x-stack-known-error")).toBe("INSUFFICIENT_ACCESS_TYPE");
    expect(response.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });

  it("leaves successful responses alone when the override header is sent", async () => {
    const response = await call("", { headers: { "x-stack-override-error-status": "true" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-stack-actual-status")).toBeNull();
  });

  it("answers a CORS preflight with the protocol headers allowed and the error headers exposed", async () => {
    const response = await fetch(server.url + "/api/v1/users/me", {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", "access-control-request-method": "PATCH", "access-control-request-headers": "x-stack-access-type, x-stack-project-id" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const allowed = response.headers.get("access-control-allow-headers")!.split(", ");
    for (const header of ["x-stack-project-id", "x-stack-access-type", "x-stack-publishable-client-key", "x-stack-access-token", "x-stack-refresh-token", "x-stack-override-error-status", "x-stack-random-nonce", "x-stack-client-version", "x-stack-allow-anonymous-user", "x-stack-branch-id"]) {
      expect(allowed).toContain(header);
    }
    expect(response.headers.get("access-control-allow-methods")).toContain("PATCH");
    const exposed = response.headers.get("access-control-expose-headers")!;
    expect(exposed).toContain("x-stack-actual-status");
    expect(exposed).toContain("x-stack-known-error");
  });

  it("sends the CORS headers on ordinary API responses, errors included", async () => {
    const response = await fetch(server.url + "/api/v1/projects/current", { headers: { origin: "https://app.example.com" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("x-stack-known-error");
  });

  it("gives every response a request id and forbids caching", async () => {
    const first = await call("");
    const second = await call("");
    expect(first.headers.get("x-stack-request-id")).not.toBe(second.headers.get("x-stack-request-id"));
  });

  it("ignores the random nonce and client version headers", async () => {
    const response = await call("", { access: "client", headers: { "x-stack-random-nonce": "abc", "x-stack-client-version": "js @stackframe/js@2.8.41" } });
    expect(response.status).toBe(200);
  });
});
