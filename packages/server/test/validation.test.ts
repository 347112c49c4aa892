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
    const response = await call("/internal/api-keys", { access: "admin", body: { description: {}, has_secret_server_key: "yes" } });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
    const message = [
      "Request validation failed on POST /api/v1/internal/api-keys:",
      "  - body.description must be a `string` type, but the final value was: `{}`.",
      "  - body.expires_at_millis must be defined",
      "  - body.has_publishable_client_key must be defined",
      "  - body.has_secret_server_key must be a `boolean` type, but the final value was: `\"yes\"`.",
      "  - body.has_super_secret_admin_key must be defined",
    ].join("\n");
    expect(response.body).toEqual({ code: "SCHEMA_ERROR", details: { message }, error: message });
  });

  it("casts a body's values to their fields' types first, as the protocol's validator does", async () => {
    const cast = await call("/internal/api-keys", {
      access: "admin",
      body: { description: 12, expires_at_millis: " 4 102 444 800 000 ", has_publishable_client_key: "TRUE", has_secret_server_key: 0, has_super_secret_admin_key: "false" },
    });
    expect(cast.status, cast.text).toBe(200);
    expect(cast.body).toMatchObject({ description: "12", expires_at_millis: 4102444800000 });
    expect(Object.keys(cast.body)).toContain("publishable_client_key");
    expect(Object.keys(cast.body)).not.toContain("secret_server_key");
    // What does not cast is refused, naming what was sent where the cast changed it.
    const refused = await call("/internal/api-keys", { access: "admin", body: { ...validKeyBody, expires_at_millis: "tomorrow", has_secret_server_key: [] } });
    expect(refused.body.error).toBe(
      [
        "Request validation failed on POST /api/v1/internal/api-keys:",
        '  - body.expires_at_millis must be a `number` type, but the final value was: `NaN` (cast from the value `"tomorrow"`).',
        "  - body.has_secret_server_key must be a `boolean` type, but the final value was: `[]`.",
      ].join("\n"),
    );
    const user = await call("/users", { access: "server", body: { primary_email: `cast-${crypto.randomUUID()}@example.com`, primary_email_verified: "1", display_name: true } });
    expect(user.status, user.text).toBe(201);
    expect(user.body).toMatchObject({ display_name: "true", primary_email_verified: true });
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

  it("checks ids as the protocol's uuid check does: versions 1 to 5, or the nil UUID", async () => {
    const line = (path: string) => `Request validation failed on GET /api/v1/users/${path}:\n  - params.user_id must be a valid UUID`;
    for (const id of ["not-a-uuid", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f" /* v7 */, "ffffffff-ffff-ffff-ffff-ffffffffffff"]) {
      const response = await call(`/users/${id}`, { access: "server" });
      expect([response.status, response.body.code, response.body.error]).toEqual([400, "SCHEMA_ERROR", line(id)]);
    }
    for (const id of [crypto.randomUUID(), "00000000-0000-0000-0000-000000000000"]) {
      expect((await call(`/users/${id}`, { access: "server" })).body.code).toBe("USER_NOT_FOUND");
    }
    const key = await call("/user-api-keys", { access: "server", body: { user_id: "abc", description: "d", expires_at_millis: null } });
    expect(key.body.error).toBe("Request validation failed on POST /api/v1/user-api-keys:\n  - body.user_id must be a valid UUID");
  });

  it("refuses unknown properties in the bodies that take next to nothing, as the protocol does", async () => {
    const userId = crypto.randomUUID();
    const token = await call(`/connected-accounts/${userId}/github/access-token`, { access: "server", body: { scope: "repo", foo: 1 } });
    expect(token.body.error).toBe(`Request validation failed on POST /api/v1/connected-accounts/${userId}/github/access-token:\n  - body contains unknown properties: foo`);
    const svix = await call("/webhooks/svix-token", { access: "admin", body: { foo: 1 } });
    expect(svix.body.error).toBe("Request validation failed on POST /api/v1/webhooks/svix-token:\n  - body contains unknown properties: foo");
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
    ["an array where a string belongs", { body: { ...validKeyBody, description: [5] } }, "SCHEMA_ERROR"],
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
    ["a revoked flag that is a word", { path: "/internal/api-keys/00000000-0000-4000-8000-000000000002", method: "PATCH", body: { revoked: "yes" } }, "SCHEMA_ERROR"],
    ["a revoked flag that casts to true, of a key that does not exist", { path: `/internal/api-keys/${crypto.randomUUID()}`, method: "PATCH", body: { revoked: "true" } }, "API_KEY_NOT_FOUND"],
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
