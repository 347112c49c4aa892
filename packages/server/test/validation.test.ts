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
const validKeyBody = { description: "d", expires_at_millis: 1, has_publishable_client_key: true, has_secret_server_key: false, has_super_secret_admin_key: false };

describe("request validation", () => {
  it("reports every problem in one SCHEMA_ERROR with the protocol's message format", async () => {
    const response = await call("/internal/api-keys", { access: "admin", body: { description: 12, has_secret_server_key: "yes" } });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
    const message = [
      "Request validation failed on POST /api/v1/internal/api-keys:",
      "  - body.description must be a `string` type, but the final value was: `12`.",
      "  - body.expires_at_millis must be defined",
      "  - body.has_publishable_client_key must be defined",
      "  - body.has_secret_server_key must be a `boolean` type, but the final value was: `\"yes\"`.",
      "  - body.has_super_secret_admin_key must be defined",
    ].join("\n");
    expect(response.body).toEqual({ code: "SCHEMA_ERROR", details: { message }, error: message });
  });

  it("rejects unknown body properties and names them", async () => {
    const response = await call("/internal/api-keys", { access: "admin", body: { ...validKeyBody, is_admin: true, extra: 1 } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("Request validation failed on POST /api/v1/internal/api-keys:\n  - body contains unknown properties: is_admin, extra");
  });

  it("rejects text the database cannot store, anywhere in the body, as a schema error", async () => {
    for (const description of ["nul\u0000byte", "lone \ud800 surrogate"]) {
      const response = await call("/internal/api-keys", { access: "admin", body: { ...validKeyBody, description } });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe("Request validation failed on POST /api/v1/internal/api-keys:\n  - body.description must not contain null characters or unpaired surrogates");
    }
    const logo = await call("/internal/projects/current", { access: "admin", method: "PATCH", body: { display_name: "a\u0000b" } });
    expect(logo.body.code).toBe("SCHEMA_ERROR");
  });

  it("checks access before validating the body", async () => {
    const response = await call("/internal/api-keys", { access: "client", body: { nonsense: true } });
    expect(response.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });

  it("reports unparsable JSON as a body parsing error, before the headers are looked at", async () => {
    const response = await call("/internal/api-keys", { headers: { "x-stack-access-type": "bogus" }, body: "{not json" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "BODY_PARSING_ERROR", error: "Invalid JSON in request body" });
  });

  it("reports a missing body on a route that needs one", async () => {
    const response = await call("/internal/api-keys", { access: "admin", method: "POST" });
    expect(response.body.error).toBe("Request validation failed on POST /api/v1/internal/api-keys:\n  - body must be defined");
  });

  it("rejects a body of an unknown content type without a server error", async () => {
    const response = await fetch(server.url + "/api/v1/internal/api-keys", { method: "POST", headers: { "content-type": "application/xml" }, body: "<a/>" });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("Unknown content type in request body: application/xml");
  });

  // Twenty malformed requests, each answered with its known error and never a 5xx (the api helper also
  // checks that for every response).
  const admin = { "x-stack-project-id": "internal", "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": "this-super-secret-admin-key-is-for-local-development-only" };
  const malformed: Array<[string, { path?: string; method?: string; headers?: Record<string, string>; body?: unknown }, string]> = [
    ["truncated JSON", { body: '{"description": "x"' }, "BODY_PARSING_ERROR"],
    ["a JSON string instead of an object", { body: '"hello"' }, "SCHEMA_ERROR"],
    ["a JSON array instead of an object", { body: "[1,2,3]" }, "SCHEMA_ERROR"],
    ["JSON null", { body: "null" }, "SCHEMA_ERROR"],
    ["an empty JSON body", { body: "" }, "BODY_PARSING_ERROR"],
    ["a number where a string belongs", { body: { ...validKeyBody, description: 5 } }, "SCHEMA_ERROR"],
    ["a string where a number belongs", { body: { ...validKeyBody, expires_at_millis: "tomorrow" } }, "SCHEMA_ERROR"],
    ["an object where a boolean belongs", { body: { ...validKeyBody, has_secret_server_key: {} } }, "SCHEMA_ERROR"],
    ["null where a boolean belongs", { body: { ...validKeyBody, has_secret_server_key: null } }, "SCHEMA_ERROR"],
    ["a huge unknown property", { body: { ...validKeyBody, ["k".repeat(10_000)]: "v".repeat(100_000) } }, "SCHEMA_ERROR"],
    ["deeply nested JSON", { body: "[".repeat(5000) + "]".repeat(5000) }, "SCHEMA_ERROR"],
    ["an access type in unicode", { headers: { "x-stack-access-type": "ädmin" } }, "INVALID_ACCESS_TYPE"],
    ["a project id with emoji (raw UTF-8 bytes)", { headers: { "x-stack-project-id": Buffer.from("🔑", "utf8").toString("latin1") } }, "CURRENT_PROJECT_NOT_FOUND"],
    ["a 10 KB project id", { headers: { "x-stack-project-id": "p".repeat(10_000) } }, "CURRENT_PROJECT_NOT_FOUND"],
    ["a SQL injection attempt as project id", { headers: { "x-stack-project-id": "internal' or '1'='1" } }, "CURRENT_PROJECT_NOT_FOUND"],
    ["a 10 KB admin key", { headers: { "x-stack-super-secret-admin-key": "k".repeat(10_000) } }, "INVALID_SUPER_SECRET_ADMIN_KEY"],
    ["no headers at all", { headers: { "x-stack-project-id": "", "x-stack-access-type": "", "x-stack-super-secret-admin-key": "" } }, "ACCESS_TYPE_REQUIRED"],
    ["a key id with path tricks", { path: "/internal/api-keys/..%2F..%2Fprojects", method: "GET", body: undefined }, "API_KEY_NOT_FOUND"],
    ["a revoked flag that is a string", { path: "/internal/api-keys/00000000-0000-4000-8000-000000000002", method: "PATCH", body: { revoked: "true" } }, "SCHEMA_ERROR"],
    ["invalid UTF-8 in the body", { body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }, "BODY_PARSING_ERROR"],
  ];

  it.each(malformed)("answers %s with the right known error", async (_name, request, code) => {
    const body = request.body === undefined ? undefined : typeof request.body === "string" || request.body instanceof Uint8Array ? request.body : JSON.stringify(request.body);
    const response = await fetch(server.url + "/api/v1" + (request.path ?? "/internal/api-keys"), {
      method: request.method ?? "POST",
      headers: { ...admin, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...request.headers },
      body: body as BodyInit | undefined,
    });
    const text = await response.text();
    expect(response.status, text).toBeLessThan(500);
    expect(response.headers.get("x-stack-known-error"), text).toBe(code);
    expect(JSON.parse(text).code).toBe(code);
  });
});
