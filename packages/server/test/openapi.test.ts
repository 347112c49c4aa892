import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import type { AppDeps } from "../src/http/context.js";
import { openApiPath } from "../src/http/openapi.js";
import { api } from "./support/api.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** The API routes the application really mounts, as `METHOD /path` in OpenAPI's path form. */
function mountedApiRoutes(): string[] {
  // Building the app only wires routes; the dependencies are used by requests, and none is sent here.
  const app = createApp({} as AppDeps);
  // The Svix-compatible webhook API (routes/webhooks-svix.ts) is Svix's API, not the Stack protocol's: Svix documents it.
  const isSvixApi = (path: string) => path.startsWith("/api/v1/webhooks/svix/");
  const routes = app.routes
    .filter((route) => route.method !== "ALL" && (route.path === "/api/v1" || route.path.startsWith("/api/v1/")) && !isSvixApi(route.path))
    .map((route) => `${route.method} ${openApiPath(route.path.slice("/api/v1".length)) || "/"}`);
  return [...new Set(routes)].sort();
}

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists every route the server mounts, and nothing it does not", async () => {
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const mounted = mountedApiRoutes();
    expect(mounted.length).toBeGreaterThan(90);
    expect(documented).toEqual(mounted);
  });

  it("describes each operation: summary, access, parameters of the path, success and known-error answers", async () => {
    const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const getUser = document.paths["/users/{user_id}"].get;
    expect(getUser.summary).toBe("Read a user");
    expect(getUser["x-access-types"]).toEqual(["server", "admin"]);
    expect(getUser.parameters).toContainEqual(expect.objectContaining({ name: "user_id", in: "path", required: true }));
    expect(getUser.responses["200"].content["application/json"].schema.properties).toHaveProperty("primary_email_auth_enabled");
    expect(getUser.responses["404"].content["application/json"].schema.properties.code.enum).toContain("USER_NOT_FOUND");
    const listUsers = document.paths["/users"].get;
    expect(listUsers.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["cursor", "limit", "query", "include_anonymous"]));
    const operationIds = Object.values(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it("is served under /api/latest too, and every route answers there", async () => {
    const latest = await fetch(`${server.url}/api/latest/openapi.json`);
    expect(latest.status).toBe(200);
    expect(await latest.json()).toEqual(await (await fetch(`${server.url}/api/v1/openapi.json`)).json());
    const greeting = await fetch(`${server.url}/api/latest`);
    expect(await greeting.text()).toMatch(/^Welcome to the Stack API endpoint!/);
    const me = await fetch(`${server.url}/api/latest/users/me`, {
      headers: { "x-stack-project-id": "internal", "x-stack-access-type": "server", "x-stack-secret-server-key": "this-secret-server-key-is-for-local-development-only" },
    });
    expect(me.status).toBe(400);
    expect(me.headers.get("x-stack-known-error")).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});

describe("unknown keys", () => {
  it("are refused in the query of any route, as the reference does", async () => {
    const root = await api(server.url, "?extra=param");
    expect(root.status).toBe(400);
    expect(root.body).toEqual({
      code: "SCHEMA_ERROR",
      details: { message: "Request validation failed on GET /api/v1:\n  - query contains unknown properties: extra" },
      error: "Request validation failed on GET /api/v1:\n  - query contains unknown properties: extra",
    });
    const users = await api(server.url, "/users?limit=1&extra=1&other=2", { access: "server" });
    expect(users.status).toBe(400);
    expect(users.body.error).toBe("Request validation failed on GET /api/v1/users:\n  - query contains unknown properties: extra, other");
  });

  it("are refused in a body", async () => {
    const response = await api(server.url, "/users", { access: "server", body: { display_name: "A", extra: 1 } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("Request validation failed on POST /api/v1/users:\n  - body contains unknown properties: extra");
  });
});
