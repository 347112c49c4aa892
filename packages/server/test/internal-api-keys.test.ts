import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { insertKeySet } from "../src/services/api-keys.js";
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
const inOneHour = () => Date.now() + 3_600_000;

async function createKeys(body: Record<string, unknown> = {}) {
  const response = await call("/internal/api-keys", {
    access: "admin",
    body: { description: "ci", expires_at_millis: inOneHour(), has_publishable_client_key: true, has_secret_server_key: true, has_super_secret_admin_key: true, ...body },
  });
  expect(response.status).toBe(200);
  return response.body;
}

const withKey = (header: string, key: string, accessType: string) => ({
  headers: { "x-stack-project-id": "internal", "x-stack-access-type": accessType, [header]: key },
});

describe("internal API keys", () => {
  it("creates a key set whose keys have the protocol prefixes and are shown only once", async () => {
    const created = await createKeys();
    expect(created.publishable_client_key).toMatch(/^pck_[a-z2-7]{40,}$/);
    expect(created.secret_server_key).toMatch(/^ssk_[a-z2-7]{40,}$/);
    expect(created.super_secret_admin_key).toMatch(/^sak_[a-z2-7]{40,}$/);
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.description).toBe("ci");

    const read = await call(`/internal/api-keys/${created.id}`, { access: "admin" });
    expect(read.status).toBe(200);
    expect(read.body.publishable_client_key).toEqual({ last_four: created.publishable_client_key.slice(-4) });
    expect(read.body.secret_server_key).toEqual({ last_four: created.secret_server_key.slice(-4) });
    expect(read.body.super_secret_admin_key).toEqual({ last_four: created.super_secret_admin_key.slice(-4) });
    expect(JSON.stringify(read.body)).not.toContain(created.secret_server_key);
  });

  it("creates a set with only the kinds asked for", async () => {
    const created = await createKeys({ has_secret_server_key: false, has_super_secret_admin_key: false });
    expect(created.publishable_client_key).toBeDefined();
    expect(created.secret_server_key).toBeUndefined();
    expect(created.super_secret_admin_key).toBeUndefined();
  });

  it("lists key sets with their last four characters", async () => {
    const created = await createKeys({ description: "listed" });
    const list = await call("/internal/api-keys", { access: "admin" });
    expect(list.status).toBe(200);
    const item = list.body.items.find((k: { id: string }) => k.id === created.id);
    expect(item).toMatchObject({ description: "listed", publishable_client_key: { last_four: created.publishable_client_key.slice(-4) } });
    expect(item.manually_revoked_at_millis).toBeUndefined();
  });

  it("authenticates requests with the new keys", async () => {
    const created = await createKeys();
    expect((await call("", withKey("x-stack-publishable-client-key", created.publishable_client_key, "client"))).text).toContain("Authentication: Client");
    expect((await call("", withKey("x-stack-secret-server-key", created.secret_server_key, "server"))).text).toContain("Authentication: Server");
    expect((await call("", withKey("x-stack-super-secret-admin-key", created.super_secret_admin_key, "admin"))).text).toContain("Authentication: Admin");
  });

  it("rejects every key of a revoked set on the next request", async () => {
    const created = await createKeys();
    const revoked = await call(`/internal/api-keys/${created.id}`, { access: "admin", method: "PATCH", body: { revoked: true } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.manually_revoked_at_millis).toBeGreaterThan(Date.now() - 60_000);

    const client = await call("", withKey("x-stack-publishable-client-key", created.publishable_client_key, "client"));
    expect(client.status).toBe(401);
    expect(client.body.code).toBe("INVALID_PUBLISHABLE_CLIENT_KEY");
    expect((await call("", withKey("x-stack-secret-server-key", created.secret_server_key, "server"))).body.code).toBe("INVALID_SECRET_SERVER_KEY");
    expect((await call("", withKey("x-stack-super-secret-admin-key", created.super_secret_admin_key, "admin"))).body.code).toBe("INVALID_SUPER_SECRET_ADMIN_KEY");
  });

  it("cannot un-revoke a key set", async () => {
    const created = await createKeys();
    const response = await call(`/internal/api-keys/${created.id}`, { access: "admin", method: "PATCH", body: { revoked: false } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("SCHEMA_ERROR");
  });

  it("rejects the keys of an expired set", async () => {
    const created = await createKeys({ expires_at_millis: Date.now() - 1000 });
    const response = await call("", withKey("x-stack-secret-server-key", created.secret_server_key, "server"));
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("INVALID_SECRET_SERVER_KEY");
  });

  it("renames a key set", async () => {
    const created = await createKeys();
    const response = await call(`/internal/api-keys/${created.id}`, { access: "admin", method: "PATCH", body: { description: "renamed" } });
    expect(response.body.description).toBe("renamed");
  });

  it("answers API_KEY_NOT_FOUND for an unknown or malformed id", async () => {
    for (const id of ["00000000-0000-4000-8000-0000000000ff", "nope"]) {
      const response = await call(`/internal/api-keys/${id}`, { access: "admin" });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("API_KEY_NOT_FOUND");
    }
  });

  it("shows publishable keys again in full (they are public), never the secret ones, and only of valid sets", async () => {
    const older = await createKeys({ description: "older" });
    const newer = await createKeys({ description: "newer", has_secret_server_key: false, has_super_secret_admin_key: false });
    const revoked = await createKeys({ description: "revoked" });
    await call(`/internal/api-keys/${revoked.id}`, { access: "admin", method: "PATCH", body: { revoked: true } });
    const expired = await createKeys({ description: "expired", expires_at_millis: Date.now() - 1000 });
    const secretOnly = await createKeys({ description: "secret only", has_publishable_client_key: false });
    // A key set made before the server kept publishable keys: known by its hash only.
    const hashOnly = await createKeys({ description: "hash only" });
    await server.db.updateTable("api_key_sets").set({ publishable_client_key: null }).where("id", "=", hashOnly.id).execute();

    const response = await call("/internal/publishable-client-keys", { access: "admin" });
    expect(response.status).toBe(200);
    const mine = new Set([older.id, newer.id, revoked.id, expired.id, secretOnly.id, hashOnly.id]);
    const listed = response.body.items.filter((item: { id: string }) => mine.has(item.id));
    expect(listed).toEqual([
      { id: newer.id, description: "newer", publishable_client_key: newer.publishable_client_key, created_at_millis: newer.created_at_millis, expires_at_millis: newer.expires_at_millis },
      { id: older.id, description: "older", publishable_client_key: older.publishable_client_key, created_at_millis: older.created_at_millis, expires_at_millis: older.expires_at_millis },
    ]);
    expect(response.text).not.toContain(older.secret_server_key);
    expect(response.text).not.toContain(older.super_secret_admin_key);
    // The key shown is one that works.
    const client = await call("", withKey("x-stack-publishable-client-key", listed[0].publishable_client_key, "client"));
    expect(client.text).toContain("Authentication: Client");
    // The secret keys stay hashes in the database.
    const row = await server.db.selectFrom("api_key_sets").selectAll().where("id", "=", older.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(Object.values(row))).not.toContain(older.secret_server_key);
    expect((await call("/internal/publishable-client-keys", { access: "server" })).body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });

  it("is admin only", async () => {
    const response = await call("/internal/api-keys", { access: "server" });
    expect(response.body).toMatchObject({ code: "INSUFFICIENT_ACCESS_TYPE", details: { actual_access_type: "server", allowed_access_types: ["admin"] } });
  });
});

describe("production mode", () => {
  it("never accepts the well-known development keys, even when they are stored", async () => {
    const production = await startTestServer({
      LATCHKEY_DEV_MODE: "false",
      LATCHKEY_SERVER_SECRET: "x".repeat(40),
      LATCHKEY_SEED_SECRET_SERVER_KEY: "ssk_configured_for_production_0000000000",
    });
    try {
      // Someone stored the well-known keys as an ordinary key set; a production server must still refuse them.
      await insertKeySet(production.db, "internal", { description: "well-known keys", expiresAt: null, keys: WELL_KNOWN_DEV_KEYS });
      const wellKnown = await api(production.url, "", { access: "server" });
      expect(wellKnown.status).toBe(401);
      expect(wellKnown.body.code).toBe("INVALID_SECRET_SERVER_KEY");
      const configured = await api(production.url, "", withKey("x-stack-secret-server-key", "ssk_configured_for_production_0000000000", "server"));
      expect(configured.text).toContain("Authentication: Server");
      const admin = await api(production.url, "", { access: "admin" });
      expect(admin.body.code).toBe("INVALID_SUPER_SECRET_ADMIN_KEY");
    } finally {
      await production.close();
    }
  });
});
